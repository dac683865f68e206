package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
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

/** W3-recipe over a small image folder: the recipe's batches, mixed in the step, alike with 0 and 2 workers. */
class W3RecipeTest {

    @Test
    void theStepMixesTheRecipesBatchesAlikeOnEveryPath(@TempDir Path data) throws IOException {
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < 12; i++) {
            Path dir = Files.createDirectories(data.resolve("jpeg").resolve("class_0" + (i / 6)));
            ImageIO.write(W3JpegFolder.picture(rnd, i / 6), "jpeg", dir.resolve(String.format("%06d.jpg", i)).toFile());
        }
        assertThat(Workloads.find("w3-recipe", 8, null)).get().extracting(Workload::name).isEqualTo("W3-recipe");
        try (W3Recipe recipe = new W3Recipe(8)) {
            List<String> reference = null;
            for (Configuration c : recipe.configurations().stream().filter(c -> c.numWorkers() % 2 == 0
                    && c.numWorkers() <= 2).toList()) {
                List<String> batches = new ArrayList<>();
                try (DataLoader<?> loader = recipe.newLoader(c, 5, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor images = b.tensor("image");
                            assertThat(images.shape()).isEqualTo(Shape.of(8, 3, 224, 224));
                            float[] before = images.toFloatArray();
                            recipe.step(b);
                            float[] after = images.toFloatArray();
                            // MixUp and CutMix both change some image (8 images, classes mixed).
                            assertThat(after).isNotEqualTo(before);
                            batches.add(Arrays.toString(b.indices()) + Arrays.hashCode(after));
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                if (reference == null) {
                    reference = batches;
                } else {
                    assertThat(batches).as(c.name()).isEqualTo(reference);
                }
            }
            assertThat(reference).hasSize(1);
        }
    }
}
