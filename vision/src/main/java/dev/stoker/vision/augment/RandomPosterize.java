package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomPosterize(bits, p=0.5)}: with probability {@code p}, each value
 * keeps only its top {@code bits} bits. One draw.
 *
 * @param bits 0 to 8
 * @param p the probability, in [0, 1]
 */
public record RandomPosterize(int bits, double p) implements PixelOp {
    public RandomPosterize {
        Probability.check("RandomPosterize", p);
        if (bits < 0 || bits > 8) {
            throw new IllegalArgumentException("RandomPosterize keeps 0 to 8 bits, not " + bits);
        }
    }

    public RandomPosterize(int bits) {
        this(bits, 0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.posterize(tile, bits);
        }
    }
}
