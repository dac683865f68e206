package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomVerticalFlip(p=0.5)}: with probability {@code p}, the output turned
 * upside down. One draw. A pixel op on the output tile (a swap of rows), so it goes after the
 * geometric steps, as in {@code Compose([RandomResizedCrop(224), RandomVerticalFlip()])}; the
 * builder refuses a geometric step after it, which would silently move before it.
 *
 * @param p the probability, in [0, 1]
 */
public record RandomVerticalFlip(double p) implements PixelOp {
    public RandomVerticalFlip {
        Probability.check("RandomVerticalFlip", p);
    }

    /** torchvision's default, p = 0.5. */
    public RandomVerticalFlip() {
        this(0.5);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (random.nextDouble() < p) {
            flip(tile);
        }
    }

    /** {@code F.vflip}: row {@code y} and row {@code height - 1 - y} change places. */
    static void flip(Tile tile) {
        byte[] px = tile.pixels();
        int row = 3 * tile.width();
        byte[] spare = tile.spare();
        for (int top = 0, bottom = tile.height() - 1; top < bottom; top++, bottom--) {
            System.arraycopy(px, top * row, spare, 0, row);
            System.arraycopy(px, bottom * row, px, top * row, row);
            System.arraycopy(spare, 0, px, bottom * row, row);
        }
    }
}
