package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** W3 over a small image folder: the batches it delivers, alike on the collate and fill paths. */
class W3JpegFolderTest {

    @Test
    void deliversNormalizedImagesAndLabelsAlikeOnEveryPath(@TempDir Path data) throws IOException {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 20; i++) {
            Path dir = Files.createDirectories(data.resolve("jpeg").resolve("class_0" + (i / 10)));
            ImageIO.write(W3JpegFolder.picture(rnd, i / 10), "jpeg", dir.resolve(String.format("%06d.jpg", i)).toFile());
        }
        try (W3JpegFolder w3 = new W3JpegFolder(16)) {
            List<String> reference = null;
            for (Configuration c : w3.configurations().stream().filter(c -> c.numWorkers() <= 2).toList()) {
                List<String> batches = new ArrayList<>();
                try (DataLoader<?> loader = w3.newLoader(c, 3, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor images = b.tensor("image");
                            Tensor labels = b.tensor("label");
                            assertThat(images.dtype()).isEqualTo(DType.F32);
                            assertThat(images.shape()).isEqualTo(Shape.of(16, 3, 224, 224));
                            assertThat(labels.toLongArray()).containsOnly(0L, 1L);
                            for (float f : images.select(0).toFloatArray()) {
                                assertThat(f).isBetween(-2.2f, 2.7f);
                            }
                            batches.add(Arrays.toString(b.indices()) + Arrays.hashCode(images.toFloatArray())
                                    + Arrays.toString(labels.toLongArray()));
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(batches).as(c.name()).hasSize(1);
                if (reference == null) {
                    reference = batches;
                } else {
                    assertThat(batches).as(c.name()).isEqualTo(reference);
                }
            }
        }
    }
}
