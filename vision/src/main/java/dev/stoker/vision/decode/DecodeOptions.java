package dev.stoker.vision.decode;

/**
 * What a decoder accepts.
 *
 * <pre>{@code
 * DecodeOptions strict = DecodeOptions.defaults();                      // PIL's limits
 * DecodeOptions lenient = DecodeOptions.defaults().withAllowTruncated(true).withMaxPixels(20_000_000);
 * }</pre>
 *
 * @param maxPixels      images with more pixels (width x height) than this are refused before
 *     any memory is taken for them: a decompression bomb is a small file that claims a huge size
 * @param allowTruncated accept an image whose data ends early or is damaged, with the missing
 *     part filled in as the decoder does (grey): PIL's {@code ImageFile.LOAD_TRUNCATED_IMAGES}.
 *     Off by default, so that a damaged file is an error, as with PIL
 * @param useTurboJpeg   use libjpeg-turbo when the system has it (default); false forces the
 *     JDK's ImageIO
 */
public record DecodeOptions(long maxPixels, boolean allowTruncated, boolean useTurboJpeg) {
    /** PIL's {@code Image.MAX_IMAGE_PIXELS}: 1024 x 1024 x 1024 / 4 / 3 pixels. */
    public static final long DEFAULT_MAX_PIXELS = 89_478_485L;

    public DecodeOptions {
        if (maxPixels < 1) {
            throw new IllegalArgumentException("maxPixels must be positive, not " + maxPixels);
        }
    }

    /** PIL's pixel limit, truncated images refused, libjpeg-turbo when present. */
    public static DecodeOptions defaults() {
        return new DecodeOptions(DEFAULT_MAX_PIXELS, false, true);
    }

    public DecodeOptions withMaxPixels(long maxPixels) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg);
    }

    public DecodeOptions withAllowTruncated(boolean allowTruncated) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg);
    }

    public DecodeOptions withUseTurboJpeg(boolean useTurboJpeg) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg);
    }
}
