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
 *     part filled in as the decoder does: PIL's {@code ImageFile.LOAD_TRUNCATED_IMAGES}. What
 *     libjpeg's warnings skip is grey (or, in a progressive JPEG, as the earlier scans left it);
 *     rows after an error libjpeg-turbo cannot get past are black, as PIL leaves them, which for
 *     a progressive JPEG (all its scans are read before any row is made) is the whole image.
 *     ImageIO, where it decodes, refuses what it cannot get past. A JPEG of more than 500 scans
 *     is refused either way. Off by default, so that a damaged file is an error, as with PIL
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
