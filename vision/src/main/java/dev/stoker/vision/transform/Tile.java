package dev.stoker.vision.transform;

/**
 * The output image in 8-bit RGB, between the resample and {@code Normalize}: what the
 * {@link PixelOp}s change in place. Rows are packed ({@code 3 * width} bytes each, R G B), the
 * flip and any padding already applied, so a pixel op sees exactly the PIL image torchvision's
 * colour transforms see after the crop, resize and flip.
 *
 * <pre>{@code
 * byte[] px = tile.pixels();
 * int at = 3 * (y * tile.width() + x);
 * int red = px[at] & 0xFF;
 * }</pre>
 *
 * <p>Not thread-safe; one per worker at a time, reused from image to image (its arrays may be
 * longer than {@code 3 * width * height}).
 */
public final class Tile {
    private int width;
    private int height;
    private byte[] pixels = new byte[0];
    private byte[] spare = new byte[0];

    public Tile() {}

    /** A tile over {@code pixels} ({@code width x height} RGB, rows packed): for tests and one-off use. */
    public static Tile of(int width, int height, byte[] pixels) {
        Tile t = new Tile();
        t.reset(width, height);
        System.arraycopy(pixels, 0, t.pixels, 0, 3 * width * height);
        return t;
    }

    /** Makes this tile {@code width x height}; the pixel values are whatever the arrays held. */
    void reset(int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("a tile of " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        int n = 3 * width * height;
        if (pixels.length < n) {
            pixels = new byte[n];
        }
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** The number of bytes in use: {@code 3 * width * height}. */
    public int length() {
        return 3 * width * height;
    }

    /** The pixels, rows packed, RGB; the array may be longer than {@link #length()}. */
    public byte[] pixels() {
        return pixels;
    }

    /**
     * A working array of at least {@link #length()} bytes, for ops that read the pixels while they
     * write them (a blur): reused, its contents undefined.
     */
    public byte[] spare() {
        int n = length();
        return spare.length >= n ? spare : (spare = new byte[n]);
    }

    /** A copy of the pixels in use. */
    public byte[] toArray() {
        return java.util.Arrays.copyOf(pixels, length());
    }
}
