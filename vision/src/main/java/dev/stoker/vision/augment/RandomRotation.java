package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomRotation(degrees, interpolation=NEAREST, fill=0, center=None)}, the
 * same size (its {@code expand} is not there): an angle uniform in {@code [degreesMin, degreesMax]} (one
 * draw). It turns the resampled output, as torchvision turns the image it is given after a crop
 * ({@link Warp#rotate}).
 *
 * <pre>{@code
 * new RandomRotation(15);          // [-15, 15]
 * new RandomRotation(-5, 30, Interpolation.BILINEAR).fill(Fill.of(128));
 * new RandomRotation(15).center(Center.at(0, 0));   // about the top-left corner
 * }</pre>
 *
 * @param degreesMin the smallest angle, counter-clockwise
 * @param degreesMax the largest
 * @param interpolation nearest (torchvision's default) or bilinear
 * @param fill          where the turn uncovers ({@link Fill#NONE}: black, torchvision's default 0)
 * @param center        the point turned about ({@link Center#IMAGE}: the middle, torchvision's default)
 */
public record RandomRotation(double degreesMin, double degreesMax, Interpolation interpolation, Fill fill,
                             Center center) implements PixelOp {
    public RandomRotation {
        if (!(degreesMin <= degreesMax) || Double.isInfinite(degreesMin) || Double.isInfinite(degreesMax)) {
            throw new IllegalArgumentException("RandomRotation's range is ordered and finite, not [" + degreesMin + ", "
                    + degreesMax + "]");
        }
        java.util.Objects.requireNonNull(interpolation, "interpolation");
        java.util.Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's default 0)");
        java.util.Objects.requireNonNull(center, "center (Center.IMAGE for torchvision's None)");
    }

    /** Angles in {@code [degreesMin, degreesMax]}, {@code interpolation}, black fill, about the middle. */
    public RandomRotation(double degreesMin, double degreesMax, Interpolation interpolation) {
        this(degreesMin, degreesMax, interpolation, Fill.NONE, Center.IMAGE);
    }

    /** The same with {@code fill} where the turn uncovers (Pillow's {@code fillcolor}; {@link Warp}). */
    public RandomRotation fill(Fill fill) {
        return new RandomRotation(degreesMin, degreesMax, interpolation, fill, center);
    }

    /** The same, turned about {@code center}. */
    public RandomRotation center(Center center) {
        return new RandomRotation(degreesMin, degreesMax, interpolation, fill, center);
    }

    /** Angles in {@code [degreesMin, degreesMax]}, nearest. */
    public RandomRotation(double degreesMin, double degreesMax) {
        this(degreesMin, degreesMax, Interpolation.NEAREST);
    }

    /** Angles in {@code [-degrees, degrees]}, nearest. */
    public RandomRotation(double degrees) {
        this(-nonNegative(degrees), degrees, Interpolation.NEAREST);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        Warp.rotate(tile, random.uniform(degreesMin, degreesMax), interpolation, fill, center);
    }

    private static double nonNegative(double d) {
        if (!(d >= 0)) {
            throw new IllegalArgumentException("RandomRotation's degrees, one number, are non-negative (the range"
                    + " [-degrees, degrees]), not " + d + "; a range is RandomRotation(min, max)");
        }
        return d;
    }
}
