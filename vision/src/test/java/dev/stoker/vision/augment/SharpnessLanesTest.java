package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.vision.transform.Tile;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Sharpness in float lanes gives the scalar loop's bytes, at any size and factor (blends past 1 clip). */
class SharpnessLanesTest {

    @Test
    void lanesEqualTheScalarLoop() {
        assumeTrue(Lanes.WIDE, "the JVM has no vectors of 256 bits or more: only the scalar loop runs");
        SplittableRandom rnd = new SplittableRandom(31);
        double[] factors = {0, 0.3, 0.5, 1, 1.9, 2, 7.5, 100};
        for (int trial = 0; trial < 200; trial++) {
            int w = 1 + rnd.nextInt(trial % 3 == 0 ? 12 : 90);
            int h = 1 + rnd.nextInt(30);
            byte[] px = new byte[3 * w * h];
            rnd.nextBytes(px);
            if (trial % 4 == 0) {
                for (int i = 0; i < px.length; i++) {
                    px[i] = rnd.nextBoolean() ? (byte) 255 : 0;
                }
            }
            double factor = trial % 5 == 0 ? rnd.nextDouble() * 4 : factors[trial % factors.length];
            Tile tile = Tile.of(w, h, px);
            Adjust.sharpness(tile, factor);
            byte[] expected = px.clone();
            if (w >= 3 && h >= 3) {
                for (int y = 1; y < h - 1; y++) {
                    for (int at = 3 * (y * w + 1); at < 3 * (y * w + w - 1); at++) {
                        expected[at] = (byte) Adjust.sharpened(px, at, 3 * w, (float) factor);
                    }
                }
            }
            assertThat(java.util.Arrays.mismatch(tile.toArray(), expected))
                    .as("first byte differing, trial %d: %dx%d, factor %s", trial, w, h, factor).isEqualTo(-1);
        }
    }
}
