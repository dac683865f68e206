package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomGrayscale(p=0.1)}: with probability {@code p}, the image becomes
 * its Pillow luma in all three channels. One draw.
 *
 * @param p the probability, in [0, 1]
 */
public record RandomGrayscale(double p) implements PixelOp {
    public RandomGrayscale {
        Probability.check("RandomGrayscale", p);
    }

    /** torchvision's default, p = 0.1. */
    public RandomGrayscale() {
        this(0.1);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.grayscale(tile);
        }
    }
}
