package dev.stoker.vision.transform;

/**
 * torchvision's {@code Resize}, bilinear and antialiased: with one size, the shorter side becomes
 * {@code size} and the longer one keeps the aspect ratio (truncated, as torchvision computes
 * {@code int(size * long / short)}); with two, the image becomes exactly {@code height x width}.
 *
 * <pre>{@code
 * Resize.shorterSide(256);      // 500x375 -> 341x256
 * Resize.to(224, 224);          // any -> 224x224
 * }</pre>
 *
 * @param height rows, or 0 with {@code shorterSide}
 * @param width  columns, or 0 with {@code shorterSide}
 * @param shorterSide the shorter side's length, or 0 for an exact size
 */
public record Resize(int height, int width, int shorterSide) implements ImageTransform {
    public Resize {
        boolean exact = height > 0 && width > 0 && shorterSide == 0;
        boolean shorter = height == 0 && width == 0 && shorterSide > 0;
        if (!exact && !shorter) {
            throw new IllegalArgumentException("Resize to " + width + "x" + height + " or shorter side " + shorterSide);
        }
    }

    public static Resize shorterSide(int size) {
        return new Resize(0, 0, size);
    }

    public static Resize to(int height, int width) {
        return new Resize(height, width, 0);
    }

    /** The output size {@code {width, height}} for an image of {@code w x h}. */
    public int[] outputSize(int w, int h) {
        if (shorterSide == 0) {
            return new int[] {width, height};
        }
        if (w <= h) {
            return new int[] {shorterSide, (int) ((long) shorterSide * h / w)};
        }
        return new int[] {(int) ((long) shorterSide * w / h), shorterSide};
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
