package dev.stoker.vision.batch;

import dev.stoker.vision.transform.SampleRandom;

/**
 * Draws from {@code Beta(alpha, alpha)}, as {@code torch.distributions.Beta} gives MixUp and
 * CutMix their mixing weight: {@code X / (X + Y)} with X and Y from {@code Gamma(alpha)}
 * (Marsaglia and Tsang's method; for alpha below 1, the boost {@code Gamma(alpha + 1) U^(1/alpha)}).
 * The same distribution as torch's, not its numbers.
 */
final class Beta {
    private Beta() {}

    static double sample(double alpha, SampleRandom random) {
        double x = gamma(alpha, random);
        double y = gamma(alpha, random);
        double s = x + y;
        return s == 0 ? (random.nextDouble() < 0.5 ? 0 : 1) : x / s;
    }

    private static double gamma(double alpha, SampleRandom random) {
        if (alpha < 1) {
            double u = unitNonZero(random);
            return gamma(alpha + 1, random) * Math.pow(u, 1 / alpha);
        }
        double d = alpha - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = normal(random);
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = unitNonZero(random);
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }

    /** A standard normal draw (Box-Muller, one of the pair). */
    private static double normal(SampleRandom random) {
        double u1 = unitNonZero(random);
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private static double unitNonZero(SampleRandom random) {
        return 1.0 - random.nextDouble();   // in (0, 1]
    }
}
