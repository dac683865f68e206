package dev.stoker.vision.transform;

/**
 * torchvision's {@code Resize}, bilinear and antialiased: with one size, the shorter side becomes
 * {@code size} and the longer one keeps the aspect ratio (truncated, as torchvision computes
 * {@code int(size * long / short)}); with two, the image becomes exactly {@code height x width}.
 * With one size and torchvision's {@code max_size}, a longer side that would pass it becomes
 * {@code maxSize} and the shorter one {@code int(maxSize * size / long)}.
 *
 * <pre>{@code
 * Resize.shorterSide(256);      // 500x375 -> 341x256
 * Resize.shorterSide(256, 300); // 500x375 -> 300x225 (max_size=300)
 * Resize.to(224, 224);          // any -> 224x224
 * }</pre>
 *
 * @param height rows, or 0 with {@code shorterSide}
 * @param width  columns, or 0 with {@code shorterSide}
 * @param shorterSide the shorter side's length, or 0 for an exact size
 * @param maxSize the longest the longer side may be with {@code shorterSide}, above it; 0 for none
 */
public record Resize(int height, int width, int shorterSide, int maxSize) implements ImageTransform {
    public Resize {
        boolean exact = height > 0 && width > 0 && shorterSide == 0;
        boolean shorter = height == 0 && width == 0 && shorterSide > 0;
        if (!exact && !shorter) {
            throw new IllegalArgumentException("Resize takes a height and a width, or a shorter side, all positive,"
                    + " not " + height + "x" + width + " and shorter side " + shorterSide);
        }
        if (maxSize != 0 && (exact || maxSize <= shorterSide)) {
            throw new IllegalArgumentException(exact
                    ? "Resize's maxSize goes with a shorter side only, as torchvision's max_size, not with " + height
                    + "x" + width
                    : "Resize's maxSize is larger than the shorter side, as torchvision's max_size, not " + maxSize
                    + " for " + shorterSide);
        }
    }

    /** An exact size, or a shorter side without a cap. */
    public Resize(int height, int width, int shorterSide) {
        this(height, width, shorterSide, 0);
    }

    /** {@code Resize(size)}: the shorter side becomes {@code size}. */
    public static Resize shorterSide(int size) {
        return new Resize(0, 0, size);
    }

    /** {@code Resize(size, max_size=maxSize)}: the same, the longer side at most {@code maxSize}. */
    public static Resize shorterSide(int size, int maxSize) {
        return new Resize(0, 0, size, maxSize);
    }

    /** {@code Resize((height, width))}. */
    public static Resize to(int height, int width) {
        return new Resize(height, width, 0);
    }

    /** The output size {@code {width, height}} for an image of {@code w x h}. */
    public int[] outputSize(int w, int h) {
        if (shorterSide == 0) {
            return new int[] {width, height};
        }
        int shortSide = Math.min(w, h);
        int newShort = shorterSide;
        int newLong = (int) ((long) shorterSide * Math.max(w, h) / shortSide);
        if (maxSize != 0 && newLong > maxSize) {
            newShort = (int) ((long) maxSize * newShort / newLong);
            newLong = maxSize;
        }
        return w <= h ? new int[] {newShort, newLong} : new int[] {newLong, newShort};
    }

    @Override
    public void apply(Geometry geometry, SampleRandom random) {
        int[] size = outputSize(geometry.width(), geometry.height());
        geometry.resize(size[1], size[0]);
    }

    @Override
    public SizeEffect sizeEffect() {
        return shorterSide == 0 ? SizeEffect.fixed(height, width) : SizeEffect.VARIES;
    }
}
