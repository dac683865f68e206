package dev.stoker.vision.transform;

/**
 * What a geometric step declares about the output size, before any image is seen (FFCV's
 * "declare, then run"): it keeps the size it is given ({@link #KEEPS}: a flip), fixes it
 * ({@link #fixed}: a crop, an exact resize), or makes it depend on each image ({@link #VARIES}:
 * a shorter-side resize). The pipeline reads the last step that does not keep the size to know
 * its output shape, and so the batch's.
 *
 * @param height rows, when fixed
 * @param width  columns, when fixed
 */
public record SizeEffect(int height, int width) {
    /** The step leaves the size as it was. */
    public static final SizeEffect KEEPS = new SizeEffect(0, 0);
    /** The size after the step depends on the image. */
    public static final SizeEffect VARIES = new SizeEffect(-1, -1);

    /** The step makes every image {@code height x width}. */
    public static SizeEffect fixed(int height, int width) {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("a fixed size of " + width + "x" + height);
        }
        return new SizeEffect(height, width);
    }

    public boolean isFixed() {
        return height > 0;
    }
}
