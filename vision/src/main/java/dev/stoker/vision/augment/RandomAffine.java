package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomAffine(degrees, translate, scale, shear, interpolation, fill, center)}
 * (nearest, black and the middle by default), on the resampled output ({@link Warp#affine}).
 *
 * <pre>{@code
 * RandomAffine.of(10).translate(0.1, 0.1).scale(0.9, 1.1).shear(-5, 5);
 * RandomAffine.of(-5, 20).shear(8).fill(Fill.of(128));    // degrees=(-5, 20), shear=8, fill=128
 * }</pre>
 *
 * <p>Draws, as torchvision's {@code get_params}: the angle; with a translation, dx and dy
 * (rounded half to even); with a scale range, the scale; with a shear, the x shear, then the y
 * shear when it has a range.
 *
 * @param degreesMin   the smallest angle
 * @param degreesMax   the largest angle
 * @param translateX   the largest shift across, as a fraction of the width (0: none)
 * @param translateY   the largest shift down, as a fraction of the height
 * @param scaleMin     the smallest scale (1 and 1: none)
 * @param scaleMax     the largest scale
 * @param shearXMin    the smallest x shear, in degrees (all four 0: none)
 * @param shearXMax    the largest x shear
 * @param shearYMin    the smallest y shear (0 and 0: none)
 * @param shearYMax    the largest y shear
 * @param interpolation nearest (torchvision's default) or bilinear
 * @param fill          where the warp uncovers ({@link Fill#NONE}: black, torchvision's default 0)
 * @param center        the point the warp turns, scales and shears about ({@link Center#IMAGE}: the middle)
 */
public record RandomAffine(double degreesMin, double degreesMax, double translateX, double translateY,
                           double scaleMin, double scaleMax, double shearXMin, double shearXMax, double shearYMin,
                           double shearYMax, Interpolation interpolation, Fill fill, Center center)
        implements PixelOp {
    public RandomAffine {
        if (!(degreesMin <= degreesMax) || !(translateX >= 0 && translateX <= 1 && translateY >= 0 && translateY <= 1)
                || !(scaleMin > 0 && scaleMin <= scaleMax) || !(shearXMin <= shearXMax) || !(shearYMin <= shearYMax)) {
            throw new IllegalArgumentException("RandomAffine needs ordered ranges, translations in [0, 1] and a positive"
                    + " scale, not degrees [" + degreesMin + ", " + degreesMax + "], translate (" + translateX + ", "
                    + translateY + "), scale [" + scaleMin + ", " + scaleMax + "], shear [" + shearXMin + ", "
                    + shearXMax + ", " + shearYMin + ", " + shearYMax + "]");
        }
        java.util.Objects.requireNonNull(interpolation, "interpolation");
        java.util.Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's default 0)");
        java.util.Objects.requireNonNull(center, "center (Center.IMAGE for torchvision's None)");
    }

    /** These ranges, black fill. */
    public RandomAffine(double degreesMin, double degreesMax, double translateX, double translateY, double scaleMin,
                        double scaleMax, double shearXMin, double shearXMax, double shearYMin, double shearYMax,
                        Interpolation interpolation) {
        this(degreesMin, degreesMax, translateX, translateY, scaleMin, scaleMax, shearXMin, shearXMax, shearYMin,
                shearYMax, interpolation, Fill.NONE, Center.IMAGE);
    }

    /** Rotation only, in {@code [-degrees, degrees]}: {@code RandomAffine(degrees)}; {@code degrees} non-negative, as torchvision's. */
    public static RandomAffine of(double degrees) {
        return of(-nonNegative("degrees", degrees), degrees);
    }

    /** Rotation only, in {@code [min, max]}: {@code RandomAffine(degrees=(min, max))}. */
    public static RandomAffine of(double min, double max) {
        return new RandomAffine(min, max, 0, 0, 1, 1, 0, 0, 0, 0, Interpolation.NEAREST);
    }

    /** The same, shifted by up to {@code x} of the width and {@code y} of the height. */
    public RandomAffine translate(double x, double y) {
        return new RandomAffine(degreesMin, degreesMax, x, y, scaleMin, scaleMax, shearXMin, shearXMax, shearYMin,
                shearYMax, interpolation, fill, center);
    }

    /** The same, scaled by a factor in {@code [min, max]}. */
    public RandomAffine scale(double min, double max) {
        return new RandomAffine(degreesMin, degreesMax, translateX, translateY, min, max, shearXMin, shearXMax,
                shearYMin, shearYMax, interpolation, fill, center);
    }

    /** The same, sheared across by {@code [-degrees, degrees]}: {@code shear=degrees}, non-negative as torchvision's. */
    public RandomAffine shear(double degrees) {
        return shear(-nonNegative("shear", degrees), degrees);
    }

    /** The same, sheared across by {@code [min, max]} degrees. */
    public RandomAffine shear(double min, double max) {
        return new RandomAffine(degreesMin, degreesMax, translateX, translateY, scaleMin, scaleMax, min, max, 0, 0,
                interpolation, fill, center);
    }

    /** The same, sheared across and down. */
    public RandomAffine shear(double xMin, double xMax, double yMin, double yMax) {
        return new RandomAffine(degreesMin, degreesMax, translateX, translateY, scaleMin, scaleMax, xMin, xMax, yMin,
                yMax, interpolation, fill, center);
    }

    /** The same, read with {@code interpolation} (nearest by default). */
    public RandomAffine interpolation(Interpolation interpolation) {
        return new RandomAffine(degreesMin, degreesMax, translateX, translateY, scaleMin, scaleMax, shearXMin, shearXMax,
                shearYMin, shearYMax, interpolation, fill, center);
    }

    /** The same, {@code fill} where the warp uncovers (Pillow's {@code fillcolor}; {@link Warp}). */
    public RandomAffine fill(Fill fill) {
        return new RandomAffine(degreesMin, degreesMax, translateX, translateY, scaleMin, scaleMax, shearXMin, shearXMax,
                shearYMin, shearYMax, interpolation, fill, center);
    }

    /** The same, about {@code center}. */
    public RandomAffine center(Center center) {
        return new RandomAffine(degreesMin, degreesMax, translateX, translateY, scaleMin, scaleMax, shearXMin, shearXMax,
                shearYMin, shearYMax, interpolation, fill, center);
    }

    private static double nonNegative(String what, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("RandomAffine's " + what + ", one number, is non-negative and finite"
                    + " (the range [-" + what + ", " + what + "]), not " + v + "; give a range as (min, max)");
        }
        return v;
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        double angle = random.uniform(degreesMin, degreesMax);
        int dx = 0;
        int dy = 0;
        if (translateX != 0 || translateY != 0) {
            double maxDx = translateX * tile.width();
            double maxDy = translateY * tile.height();
            dx = (int) Math.rint(random.uniform(-maxDx, maxDx));
            dy = (int) Math.rint(random.uniform(-maxDy, maxDy));
        }
        double scale = scaleMin == 1 && scaleMax == 1 ? 1.0 : random.uniform(scaleMin, scaleMax);
        double shearX = 0;
        double shearY = 0;
        boolean shearYRange = shearYMin != 0 || shearYMax != 0;
        if (shearXMin != 0 || shearXMax != 0 || shearYRange) {
            shearX = random.uniform(shearXMin, shearXMax);
            if (shearYRange) {
                shearY = random.uniform(shearYMin, shearYMax);
            }
        }
        Warp.affine(tile, angle, dx, dy, scale, shearX, shearY, interpolation, fill, center);
    }
}
