package dev.stoker.vision.batch;

import dev.stoker.vision.transform.SampleRandom;

/**
 * Draws from {@code Beta(alpha, alpha)}, as {@code torch.distributions.Beta} gives MixUp and
 * CutMix their mixing weight: {@code X / (X + Y)} with X and Y from {@code Gamma(alpha)}
 * ({@link SampleRandom#gamma}).
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
        return random.gamma(alpha);
    }
}
