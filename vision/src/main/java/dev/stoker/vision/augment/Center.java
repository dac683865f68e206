package dev.stoker.vision.augment;

/**
 * torchvision's {@code center} of a rotation or an affine warp: the image's centre
 * ({@link #IMAGE}, torchvision's {@code None}) or a point in pixel coordinates of the image the
 * op is given (the output tile, after the crop), {@code (0, 0)} its top-left corner.
 *
 * <pre>{@code
 * new RandomRotation(30).center(Center.at(0, 0));     // RandomRotation(30, center=(0, 0))
 * }</pre>
 *
 * <p>As Pillow, a rotation with a point given takes no shortcut for 90, 180 or 270 degrees
 * (its transposes): the same matrix as any other angle.
 */
public sealed interface Center {
    /** torchvision's {@code center=None}: the middle of the image. */
    Center IMAGE = new Middle();

    /** {@code center=(x, y)}, in pixels. */
    static Center at(double x, double y) {
        return new Point(x, y);
    }

    /** The middle of the image, whatever its size. */
    record Middle() implements Center {
        @Override
        public String toString() {
            return "None";
        }
    }

    /**
     * A point of the image.
     *
     * @param x across, from the left edge
     * @param y down, from the top edge
     */
    record Point(double x, double y) implements Center {
        public Point {
            if (!Double.isFinite(x) || !Double.isFinite(y)) {
                throw new IllegalArgumentException("a center is a finite point, not (" + x + ", " + y + ")");
            }
        }
    }
}
