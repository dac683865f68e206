package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Properties of the crop parameters over many seeded draws. */
class RandomResizedCropTest {

    @Test
    void boxesLieInTheImageWithinScaleAndRatio() {
        SplittableRandom sizes = new SplittableRandom(7);
        RandomResizedCrop rrc = new RandomResizedCrop(224);
        int fallbacks = 0;
        for (long seed = 0; seed < 5000; seed++) {
            int w = 1 + sizes.nextInt(800);
            int h = 1 + sizes.nextInt(800);
            CropBox box = rrc.params(w, h, SampleRandom.of(seed, 0, seed * 31));
            assertThat(box.top()).isBetween(0, h - box.height());
            assertThat(box.left()).isBetween(0, w - box.width());
            double area = (double) box.width() * box.height() / ((double) w * h);
            double ratio = (double) box.width() / box.height();
            boolean central = box.top() == (h - box.height()) / 2 && box.left() == (w - box.width()) / 2
                    && (box.width() == w || box.height() == h);
            if (central && area > 0.999) {
                fallbacks++;
                continue;
            }
            if (w >= 50 && h >= 50 && !central) {
                // Rounding w and h to whole pixels moves area and ratio a little off the drawn values.
                double slack = 2.5 / Math.min(box.width(), box.height());
                assertThat(area).isBetween(0.08 * (1 - 2 * slack), 1.0 * (1 + 2 * slack));
                assertThat(ratio).isBetween(0.75 * (1 - slack), 4.0 / 3.0 * (1 + slack));
            }
        }
        assertThat(fallbacks).isLessThan(2500);
    }

    @Test
    void sameKeySameBoxOtherKeyOtherBox() {
        RandomResizedCrop rrc = new RandomResizedCrop(224);
        Set<CropBox> seen = new HashSet<>();
        for (long index = 0; index < 200; index++) {
            CropBox a = rrc.params(500, 375, SampleRandom.of(42, 3, index));
            CropBox b = rrc.params(500, 375, SampleRandom.of(42, 3, index));
            assertThat(a).isEqualTo(b);
            seen.add(a);
        }
        assertThat(seen.size()).isGreaterThan(190);
        assertThat(rrc.params(500, 375, SampleRandom.of(42, 4, 0))).isNotEqualTo(rrc.params(500, 375, SampleRandom.of(42, 3, 0)));
    }

    @Test
    void fallbackWhenNoAttemptFits() {
        // scale above 1 never fits: the centre crop of the largest box with a ratio in bounds.
        RandomResizedCrop rrc = new RandomResizedCrop(32, 32, 1.5, 2.0, 0.75, 4.0 / 3.0);
        assertThat(rrc.params(400, 100, SampleRandom.of(0, 0, 0))).isEqualTo(new CropBox(0, 133, 100, 133));
        assertThat(rrc.params(100, 400, SampleRandom.of(0, 0, 0))).isEqualTo(new CropBox(133, 0, 133, 100));
        assertThat(rrc.params(120, 100, SampleRandom.of(0, 0, 0))).isEqualTo(new CropBox(0, 0, 100, 120));
    }
}
