package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomAutocontrast(p=0.5)}: with probability {@code p}, each channel is
 * stretched to the full 0..255 range. One draw.
 *
 * @param p the probability, in [0, 1]
 */
public record RandomAutocontrast(double p) implements PixelOp {
    public RandomAutocontrast {
        Probability.check("RandomAutocontrast", p);
    }

    public RandomAutocontrast() {
        this(0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            Adjust.autocontrast(tile);
        }
    }
}
