package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streaming tar dataset under the real loader, on the caller's thread and on worker threads. */
class TarShardLoaderTest {
    @TempDir
    Path dir;

    @Test
    void theLoaderDeliversEverySampleOnceAndEmptiesItsPool() {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("L-%02d.tar").toString()).maxSamples(13).build()) {
            for (int i = 0; i < 100; i++) {
                w.write(String.format("%04d", i), Map.of("cls", Integer.toString(i).getBytes(), "bin", new byte[i]));
            }
            w.commit();
        }
        TarShardDataset ds = TarShardDataset.builder(dir.resolve("L-{00..07}.tar").toString())
                .shuffleShards(true).shuffleBuffer(20).build();
        for (int workers : new int[] {0, 2}) {
            try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(8).numWorkers(workers).seed(3)
                    .collate((samples, memory) -> samples.stream().map(s -> s.string("cls")).toList()).build()) {
                for (int epoch = 0; epoch < 2; epoch++) {
                    List<String> seen = new ArrayList<>();
                    for (Batch b : loader) {
                        try (b) {
                            @SuppressWarnings("unchecked")
                            List<String> labels = (List<String>) b.data();
                            seen.addAll(labels);
                        }
                    }
                    assertThat(seen).as("workers %d epoch %d", workers, epoch).hasSize(100).doesNotHaveDuplicates();
                }
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
    }
}
