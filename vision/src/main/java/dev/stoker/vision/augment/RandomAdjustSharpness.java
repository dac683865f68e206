package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomAdjustSharpness(sharpness_factor, p=0.5)}: with probability
 * {@code p}, {@code F.adjust_sharpness(img, factor)} (0 blurs, 1 keeps, 2 sharpens). One draw.
 *
 * @param factor non-negative
 * @param p the probability, in [0, 1]
 */
public record RandomAdjustSharpness(double factor, double p) implements PixelOp {
    public RandomAdjustSharpness {
        Probability.check("RandomAdjustSharpness", p);
        if (!(factor >= 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("RandomAdjustSharpness's factor is non-negative, not " + factor);
        }
    }

    public RandomAdjustSharpness(double factor) {
        this(factor, 0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.sharpness(tile, factor);
        }
    }
}
