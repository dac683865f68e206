package dev.stoker.cli;

import dev.stoker.data.Dataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.vision.ImageSample;
import java.util.List;

/**
 * What the map-style image workloads (W3 from a folder, W8 from LMDB) share: the same rows
 * (0, 1, 2 and 4 workers, each on PyTorch's path and on the fill path) and the same loader over a
 * JPEG dataset, batch 64, shuffled.
 */
final class ImageRows {
    static final int BATCH = 64;

    private ImageRows() {}

    static List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 1, 2, 4), Configuration.GENERAL, Configuration.FILL);
    }

    /** A loader of {@code images} for row {@code c} of {@code workload}, which has no batched fetch. */
    static DataLoader<ImageSample> loader(String workload, Dataset<ImageSample> images, Configuration c, long seed) {
        if (c.batched()) {
            throw new IllegalArgumentException(workload + " has no batched fetch");
        }
        return c.applyTo(DataLoader.builder(images)) // fill: decoded into the batch; else an ImageSample each, stacked
                .batchSize(BATCH)
                .shuffle(true)
                .seed(seed)
                .build();
    }
}
