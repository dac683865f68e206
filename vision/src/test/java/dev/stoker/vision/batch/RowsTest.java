package dev.stoker.vision.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The batch roll in runs of a few thousand elements gives {@code t.roll(1, 0) * (1 - lam) + t * lam}
 * (and the plain roll) over runs longer than one chunk, at any offset, batch size and float dtype.
 */
class RowsTest {

    @Test
    void chunkedRollEqualsTheWholeRoll() {
        SplittableRandom rnd = new SplittableRandom(12);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 40; trial++) {
                int count = 1 + rnd.nextInt(6);
                int per = 1 + rnd.nextInt(trial % 2 == 0 ? 20_000 : 50);
                int offset = rnd.nextInt(per);
                int n = 1 + rnd.nextInt(per - offset);
                DType dtype = trial % 3 == 2 ? DType.BF16 : DType.F32;
                double lam = rnd.nextDouble();
                boolean copy = trial % 4 == 3;
                Tensor t = Tensor.allocate(arena, dtype, Shape.of(count, per));
                for (long i = 0; i < (long) count * per; i++) {
                    t.setFloat(i, (float) rnd.nextGaussian());
                }
                float[] before = t.toFloatArray();
                float[] expected = before.clone();
                float keep = (float) lam;
                float take = (float) (1.0 - lam);
                for (int i = 0; i < count; i++) {
                    int from = (i + count - 1) % count;
                    for (int k = offset; k < offset + n; k++) {
                        float mixed = copy ? before[from * per + k] : before[from * per + k] * take + before[i * per + k] * keep;
                        expected[i * per + k] = mixed;
                    }
                }
                if (dtype == DType.BF16) {
                    // Stored as bf16: the expected values rounded the same way.
                    Tensor e = Tensor.allocate(arena, dtype, Shape.of(count, per));
                    for (int i = 0; i < expected.length; i++) {
                        e.setFloat(i, expected[i]);
                    }
                    expected = e.toFloatArray();
                }
                if (copy) {
                    Rows.copyFromPrevious(t, per, offset, n);
                } else {
                    Rows.mixWithPrevious(t, per, offset, n, lam);
                }
                assertThat(t.toFloatArray()).as("trial %d: %d x %d, run %d at %d, %s", trial, count, per, n, offset, dtype)
                        .containsExactly(expected);
            }
        }
    }
}
