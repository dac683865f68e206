package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomSolarize(threshold, p=0.5)}: with probability {@code p}, values at
 * or above {@code threshold} become {@code 255 - v}. One draw.
 *
 * @param threshold on the 0..255 scale
 * @param p the probability, in [0, 1]
 */
public record RandomSolarize(double threshold, double p) implements PixelOp {
    public RandomSolarize {
        Probability.check("RandomSolarize", p);
        if (Double.isNaN(threshold)) {
            throw new IllegalArgumentException("RandomSolarize's threshold is a number");
        }
    }

    public RandomSolarize(double threshold) {
        this(threshold, 0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.solarize(tile, threshold);
        }
    }
}
