package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomEqualize(p=0.5)}: with probability {@code p}, each channel's
 * histogram is equalized (Pillow's {@code ImageOps.equalize}). One draw.
 *
 * @param p the probability, in [0, 1]
 */
public record RandomEqualize(double p) implements PixelOp {
    public RandomEqualize {
        Probability.check("RandomEqualize", p);
    }

    public RandomEqualize() {
        this(0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.equalize(tile);
        }
    }
}
