package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandomRotation(degrees)} with its defaults (nearest neighbours, the same
 * size, about the centre, black fill): an angle uniform in {@code [degreesMin, degreesMax]} (one
 * draw). It turns the resampled output, as torchvision turns the image it is given after a crop
 * ({@link Warp#rotate}).
 *
 * <pre>{@code
 * new RandomRotation(15);          // [-15, 15]
 * }</pre>
 *
 * @param degreesMin the smallest angle, counter-clockwise
 * @param degreesMax the largest
 * @param interpolation nearest (torchvision's default) or bilinear
 */
public record RandomRotation(double degreesMin, double degreesMax, Interpolation interpolation) implements PixelOp {
    public RandomRotation {
        if (!(degreesMin <= degreesMax) || Double.isInfinite(degreesMin) || Double.isInfinite(degreesMax)) {
            throw new IllegalArgumentException("RandomRotation's range is ordered and finite, not [" + degreesMin + ", "
                    + degreesMax + "]");
        }
        java.util.Objects.requireNonNull(interpolation, "interpolation");
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
        Warp.rotate(tile, random.uniform(degreesMin, degreesMax), interpolation);
    }

    private static double nonNegative(double d) {
        if (!(d >= 0)) {
            throw new IllegalArgumentException("RandomRotation's degrees are non-negative, not " + d);
        }
        return d;
    }
}
