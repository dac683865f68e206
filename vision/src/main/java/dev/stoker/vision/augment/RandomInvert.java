package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomInvert(p=0.5)}: with probability {@code p}, every value {@code v}
 * becomes {@code 255 - v}. One draw.
 *
 * @param p the probability, in [0, 1]
 */
public record RandomInvert(double p) implements PixelOp {
    public RandomInvert {
        Probability.check("RandomInvert", p);
    }

    /** torchvision's default, p = 0.5. */
    public RandomInvert() {
        this(0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.invert(tile);
        }
    }
}
