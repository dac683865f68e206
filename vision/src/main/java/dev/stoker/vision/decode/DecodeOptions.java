package dev.stoker.vision.decode;

/**
 * What a decoder accepts.
 *
 * <pre>{@code
 * DecodeOptions pil = DecodeOptions.defaults();                         // PIL's limits
 * DecodeOptions lenient = DecodeOptions.defaults().withAllowTruncated(true).withMaxPixels(20_000_000);
 * }</pre>
 *
 * @param maxPixels      images with more pixels (width x height) than this are refused before
 *     any memory is taken for them: a decompression bomb is a small file that claims a huge size.
 *     The default is where PIL raises {@code DecompressionBombError}: twice its
 *     {@code Image.MAX_IMAGE_PIXELS}. Between half this limit and the limit PIL only warns
 *     ({@code DecompressionBombWarning}); a loader cannot usefully warn per image, so the decoder
 *     counts such images ({@link ImageDecoder#largeImages()}) and logs the first
 * @param allowTruncated accept an image whose data ends early or is damaged, with the missing
 *     part filled in as the decoder does: PIL's {@code ImageFile.LOAD_TRUNCATED_IMAGES}. What
 *     libjpeg's warnings skip is grey (or, in a progressive JPEG, as the earlier scans left it);
 *     rows after an error libjpeg-turbo cannot get past are black, as PIL leaves them, which for
 *     a progressive JPEG (all its scans are read before any row is made) is the whole image.
 *     ImageIO, where it decodes, refuses what it cannot get past. A JPEG of more than 500 scans
 *     is refused either way, as are a damaged WebP and a plain (ASCII) PNM cut short (PIL refuses
 *     them too); binary PNM cut short is black where its data ends. Off by default, so that a
 *     damaged file is an error, as with PIL
 * @param useTurboJpeg   use libjpeg-turbo for JPEG when the system has it (default); false forces
 *     the JDK's ImageIO
 * @param useLibWebp     use libwebp for WebP when the system has it (default); false forces the
 *     pure-Java TwelveMonkeys ImageIO plugin
 */
public record DecodeOptions(long maxPixels, boolean allowTruncated, boolean useTurboJpeg, boolean useLibWebp) {
    /** PIL's {@code Image.MAX_IMAGE_PIXELS} (1024 x 1024 x 1024 / 4 / 3), above which PIL warns. */
    public static final long PIL_MAX_IMAGE_PIXELS = 89_478_485L;
    /** Where PIL refuses an image ({@code DecompressionBombError}): above twice {@link #PIL_MAX_IMAGE_PIXELS}. */
    public static final long DEFAULT_MAX_PIXELS = 2 * PIL_MAX_IMAGE_PIXELS;

    public DecodeOptions {
        if (maxPixels < 1) {
            throw new IllegalArgumentException("maxPixels must be positive, not " + maxPixels);
        }
    }

    /** Options with libwebp used when present, as before it was an option. */
    public DecodeOptions(long maxPixels, boolean allowTruncated, boolean useTurboJpeg) {
        this(maxPixels, allowTruncated, useTurboJpeg, true);
    }

    /** PIL's pixel limit, truncated images refused, libjpeg-turbo and libwebp when present. */
    public static DecodeOptions defaults() {
        return new DecodeOptions(DEFAULT_MAX_PIXELS, false, true, true);
    }

    /**
     * Images over half of {@link #maxPixels()} are counted as large: with the default, those over
     * PIL's {@code MAX_IMAGE_PIXELS}, which PIL decodes with a {@code DecompressionBombWarning}.
     */
    public long largePixels() {
        return maxPixels / 2;
    }

    public DecodeOptions withMaxPixels(long maxPixels) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg, useLibWebp);
    }

    public DecodeOptions withAllowTruncated(boolean allowTruncated) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg, useLibWebp);
    }

    public DecodeOptions withUseTurboJpeg(boolean useTurboJpeg) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg, useLibWebp);
    }

    public DecodeOptions withUseLibWebp(boolean useLibWebp) {
        return new DecodeOptions(maxPixels, allowTruncated, useTurboJpeg, useLibWebp);
    }
}
