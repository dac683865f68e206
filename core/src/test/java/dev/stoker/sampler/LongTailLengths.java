package dev.stoker.sampler;

import java.util.SplittableRandom;

/**
 * Test helper: seeded long-tailed lengths, log-normal with median {@code median} and shape 1.0
 * (about one in six over 2.7 x the median, one in forty over 7 x), clamped to {@code [min, max]}:
 * the shape of instruction-tuning sets, many short answers and a tail of long ones.
 */
public final class LongTailLengths {
    private LongTailLengths() {
    }

    public static int[] of(int n, int median, int min, int max, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            double gaussian = gaussian(random);
            long length = Math.round(median * Math.exp(gaussian));
            out[i] = (int) Math.clamp(length, min, max);
        }
        return out;
    }

    private static double gaussian(SplittableRandom random) { // Box-Muller, one of the pair
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
