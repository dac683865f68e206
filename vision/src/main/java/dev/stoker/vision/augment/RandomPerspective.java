package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomPerspective(distortion_scale=0.5, p=0.5, interpolation=BILINEAR)}:
 * with probability {@code p}, each corner of the image moves inward by a random whole number of
 * pixels, up to {@code distortionScale} of half the width and half the height, and the image is
 * warped so that the corners land there ({@link Warp#perspective}, black or {@code fill} outside). It warps the
 * resampled output, as torchvision warps the image it is given after a crop.
 *
 * <pre>{@code
 * new RandomPerspective();                   // torchvision's defaults
 * new RandomPerspective(0.3, 1.0, Interpolation.NEAREST);
 * }</pre>
 *
 * <p>Draws, in torchvision's order: one uniform against {@code p}; when it passes, the corners
 * top-left, top-right, bottom-right, bottom-left, x then y each ({@link SampleRandom#below}).
 *
 * @param distortionScale how far the corners may move, 0 to 1
 * @param p               the probability of a warp
 * @param interpolation   bilinear (torchvision's default) or nearest
 * @param fill            outside the warped image ({@link Fill#NONE}: black, torchvision's default 0)
 */
public record RandomPerspective(double distortionScale, double p, Interpolation interpolation, Fill fill)
        implements PixelOp {
    public RandomPerspective {
        if (!(distortionScale >= 0 && distortionScale <= 1) || !(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("RandomPerspective's distortion scale and p are in [0, 1], not "
                    + distortionScale + " and " + p);
        }
        java.util.Objects.requireNonNull(interpolation, "interpolation");
        java.util.Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's default 0)");
    }

    /** These parameters, black fill. */
    public RandomPerspective(double distortionScale, double p, Interpolation interpolation) {
        this(distortionScale, p, interpolation, Fill.NONE);
    }

    /** The same with {@code fill} outside the warped image (Pillow's {@code fillcolor}; {@link Warp}). */
    public RandomPerspective fill(Fill fill) {
        return new RandomPerspective(distortionScale, p, interpolation, fill);
    }

    /** torchvision's defaults: distortion 0.5, p 0.5, bilinear. */
    public RandomPerspective() {
        this(0.5, 0.5, Interpolation.BILINEAR);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        if (!(random.nextDouble() < p)) {
            return;
        }
        int w = tile.width();
        int h = tile.height();
        int[][] end = endpoints(w, h, random);
        Warp.perspective(tile, new int[][] {{0, 0}, {w - 1, 0}, {w - 1, h - 1}, {0, h - 1}}, end, interpolation, fill);
    }

    /** torchvision's {@code RandomPerspective.get_params}: the corners' new places. */
    int[][] endpoints(int width, int height, SampleRandom random) {
        int dx = (int) (distortionScale * (width / 2));
        int dy = (int) (distortionScale * (height / 2));
        int[] topLeft = {(int) random.below(dx + 1), (int) random.below(dy + 1)};
        int[] topRight = {width - dx - 1 + (int) random.below(dx + 1), (int) random.below(dy + 1)};
        int[] bottomRight = {width - dx - 1 + (int) random.below(dx + 1), height - dy - 1 + (int) random.below(dy + 1)};
        int[] bottomLeft = {(int) random.below(dx + 1), height - dy - 1 + (int) random.below(dy + 1)};
        return new int[][] {topLeft, topRight, bottomRight, bottomLeft};
    }
}
