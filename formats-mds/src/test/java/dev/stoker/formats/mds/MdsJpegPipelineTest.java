package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegDataset;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An MDS jpeg column through the vision pipeline's fill path, as the LMDB and image-folder readers feed it. */
class MdsJpegPipelineTest {
    @TempDir
    Path dir;

    @Test
    void jpegColumnsFeedJpegDataset() {
        try (MdsDataset mds = MdsDataset.open(MdsFixtures.copy("images", dir));
             ImagePipeline eval = ImagePipeline.eval(16)) {
            JpegDataset<MdsSample> images = JpegDataset.of(mds,
                    s -> EncodedImage.of(s.bytes("jpg"), s.longValue("label"), "mds:" + s.index()), eval);
            try (DataLoader<ImageSample> loader = DataLoader.builder(images).batchSize(4).build()) {
                int batches = 0;
                for (Batch b : loader) {
                    try (b) {
                        assertThat(b.tensor("image").shape()).isEqualTo(Shape.of(4, 3, 16, 16));
                        assertThat(b.tensor("image").dtype()).isEqualTo(DType.F32);
                        assertThat(b.tensor("label").toLongArray()).containsExactly(0, 1, 2, 3);
                        batches++;
                    }
                }
                assertThat(batches).isEqualTo(1);
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
    }
}
