package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One TurboJPEG decompressor handle and its scratch memory: the libjpeg-turbo half of a
 * {@link DecodeSession}. Used by one thread at a time; {@link #close()} destroys the handle.
 *
 * <p>Once the library has read a JPEG's header, its verdict on the data is final: strict, any
 * warning or error refuses the image; lenient, the image is what it decoded, the rest filled
 * (see {@link #decode}). Handing such data to ImageIO as well cost seconds and gave nothing: the
 * JDK's libjpeg fails on the same errors, after rendering the whole image once per scan.
 *
 * <p>Safety: the library writes {@code pitch * height} bytes at most for the width and height it
 * is given, and it is always given a buffer of at least that size, sized from the header it has
 * just parsed after the pixel limit was checked.
 */
final class TurboJpegDecoder implements AutoCloseable {
    static final String NAME = "libjpeg-turbo";
    /**
     * Written over the end of the last row before a lenient decode: still there after a failed
     * decode, the library stopped before that row (see {@link #decode}). Not a flat colour, so
     * that a decoded row all but never ends in it; one that did would be taken for a row not
     * reached (decoded again, or for a JPEG of several scans, black).
     */
    private static final byte[] UNWRITTEN = {0x13, (byte) 0xEC, 0x5A, (byte) 0xA7, 0x31, (byte) 0xC8, 0x02, 0x7F};
    /**
     * Entropy decoding costs about as much per compressed byte as the rest of a decode (inverse
     * DCT, upsampling, colour conversion) per this many pixels: fitted to libjpeg-turbo 2.1's
     * times on W3's images (0.36 bytes a pixel, 79% of the decode entropy) and on smooth
     * 1024x768 quality-75 ones (0.03 bytes a pixel, 26%), single-threaded CPU time.
     */
    static final double PIXELS_PER_BYTE = 10.5;
    /**
     * The share of the pixel work saved that a crop must leave over for the re-encoding of the
     * crop and the entropy decoding of it again: the crop fractions where the two measured
     * kinds of image broke even (0.12 and 0.45) sit at 0.6 of the pixel work's share.
     */
    static final double CROP_MARGIN = 0.6;
    private final TurboJpeg tj;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment ints;  // width, height, subsampling, colour space
    private final MemorySegment xform;    // struct tjtransform
    private final MemorySegment dstBuf;   // unsigned char *, the transformed JPEG the library allocates
    private final MemorySegment dstSize;  // unsigned long
    private final TurboJpegRegion region;  // libjpeg-turbo 3's region decode, or null with 2.x
    private MemorySegment handle;
    private MemorySegment transformer;    // made on the first crop

    TurboJpegDecoder(TurboJpeg tj) {
        this.tj = tj;
        try {
            this.handle = newHandle(tj);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        this.ints = arena.allocate(JAVA_INT, 4);
        this.xform = arena.allocate(TurboJpeg.TJTRANSFORM_BYTES, 8);
        this.dstBuf = arena.allocate(ADDRESS);
        this.dstSize = arena.allocate(JAVA_LONG);
        this.region = tj.v3 == null ? null : new TurboJpegRegion(tj.v3, arena);
    }

    private static MemorySegment newHandle(TurboJpeg tj) {
        MemorySegment h;
        try {
            h = (MemorySegment) tj.initDecompress.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("tjInitDecompress failed", t);
        }
        if (h.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("tjInitDecompress returned no handle");
        }
        return h;
    }

    /**
     * The header as libjpeg-turbo reads it; a failure means "not a JPEG it reads". A header read
     * with only a warning (junk between its markers, say) counts as read: the decode meets the
     * same warning, and the mode decides.
     */
    Header header(MemorySegment input) throws DecoderFailure {
        // Cleared first: on some damaged headers the call returns 0 without writing the size,
        // and the last image's size must not be taken for this one's.
        ints.fill((byte) 0);
        int rc;
        try {
            rc = (int) tj.decompressHeader3.invokeExact(handle, input, input.byteSize(),
                    ints, ints.asSlice(4), ints.asSlice(8), ints.asSlice(12));
        } catch (Throwable t) {
            throw DecoderFailure.of("tjDecompressHeader3 failed", t);
        }
        int width = ints.getAtIndex(JAVA_INT, 0);
        int height = ints.getAtIndex(JAVA_INT, 1);
        int subsampling = ints.getAtIndex(JAVA_INT, 2);
        int colorspace = ints.getAtIndex(JAVA_INT, 3);
        if (rc != 0) {
            // The size is written only once the whole header was parsed, so a size with a warning
            // is a header read to the end; -1 subsampling or colour space is one the library refused.
            boolean readWithWarning = tj.lastErrorWasWarning(handle) && width > 0 && height > 0
                    && subsampling >= 0 && colorspace >= 0;
            if (!readWithWarning) {
                String message = tj.errorMessage(handle);
                renewHandle();
                throw new DecoderFailure(message);
            }
        }
        if (width < 1 || height < 1) {
            throw new DecoderFailure("the header gives a size of " + width + "x" + height);
        }
        return new Header(width, height, subsampling, colorspace);
    }

    /**
     * A fresh handle after a failed tjDecompressHeader3. In libjpeg-turbo 2.1 an error in the
     * middle of a header returns without aborting the decompressor, so the handle stays in the
     * header state and fails every later header with the same error: one damaged file would send
     * every later image of the session to ImageIO.
     */
    private void renewHandle() {
        MemorySegment fresh = newHandle(tj);
        destroy(handle);
        handle = fresh;
    }

    /**
     * Decodes {@code input} at {@code scale} into {@code out}. The header must already have been
     * checked against the pixel limit by the caller.
     *
     * <p>Strict ({@code allowTruncated} false), the first warning stops the decode and any failure
     * is thrown. Lenient, damaged data is decoded as far as the library goes: what a warning
     * loses it fills in (grey, or the coarser scans of a progressive JPEG); rows after an error
     * it cannot get past are black, as PIL leaves them under {@code LOAD_TRUNCATED_IMAGES} (all of
     * a progressive JPEG, whose scans are read in full before any row is made). Only a JPEG of
     * more than {@value JpegScans#MAX_SCANS} scans is thrown.
     *
     * @throws DecoderFailure the library's message: the image is refused, not for another decoder
     */
    DecodedImage decode(MemorySegment input, Header header, ScalingFactor scale, NativeBuffer out,
                        boolean allowTruncated) throws DecoderFailure {
        boolean cmyk = header.colorspace == TurboJpeg.TJCS_CMYK || header.colorspace == TurboJpeg.TJCS_YCCK;
        int width = scale.scale(header.width);
        int height = scale.scale(header.height);
        int bytesPerPixel = cmyk ? 4 : 3;
        int pitch = Math.multiplyExact(width, bytesPerPixel);
        MemorySegment dst = out.ensure(Math.multiplyExact((long) pitch, height));
        int flags = TurboJpeg.TJFLAG_LIMITSCANS | (allowTruncated ? 0 : TurboJpeg.TJFLAG_STOPONWARNING);
        // The end of the last row, where a lenient decode that stopped early leaves the mark.
        MemorySegment lastBytes = dst.asSlice(dst.byteSize() - Math.min(UNWRITTEN.length, pitch));
        if (allowTruncated) {
            MemorySegment.copy(UNWRITTEN, 0, lastBytes, JAVA_BYTE, 0, (int) lastBytes.byteSize());
        }
        if (!decompress(input, dst, width, pitch, height, cmyk, flags)) {
            String message = tj.errorMessage(handle);
            if (!allowTruncated) {
                // A warning is damaged data, an error data libjpeg cannot get past: ImageIO (libjpeg
                // too) would warn or stop on it as well, after rendering every scan before it,
                // which for a progressive file of a few hundred scans takes seconds.
                throw new DecoderFailure(tj.lastErrorWasWarning(handle) ? "damaged or truncated data: " + message : message);
            }
            // Finished with warnings, or stopped by an error: libjpeg-turbo reports both the same
            // way (tjGetErrorCode says "warning" for an error that follows one). The last row tells
            // them apart: an error before it leaves rows holding whatever the buffer held (the
            // previous image), and those must not be taken for pixels.
            if (isUnwritten(lastBytes)) {
                int scans = JpegScans.count(input, JpegScans.MAX_SCANS);
                if (scans > JpegScans.MAX_SCANS) {
                    throw new DecoderFailure(JpegScans.TOO_MANY);
                }
                dst.fill((byte) 0);
                // A JPEG of several scans (progressive) is read in full before its first row is
                // made, so an error while reading it leaves no row: the cleared buffer is the
                // image. One scan makes rows as it is read: those before the error are decoded again.
                if (scans <= 1) {
                    decompress(input, dst, width, pitch, height, cmyk, flags);
                }
            }
        }
        long pixels = (long) width * height;
        if (cmyk) {
            PixelConversions.cmykToRgbInPlace(dst, pixels, true);
        }
        return new DecodedImage(dst.asSlice(0, pixels * 3), width, height, scale, NAME);
    }

    /** One tjDecompress2 call; false when it reported a warning or an error. */
    private boolean decompress(MemorySegment input, MemorySegment dst, int width, int pitch, int height,
                               boolean cmyk, int flags) throws DecoderFailure {
        try {
            return (int) tj.decompress2.invokeExact(handle, input, input.byteSize(), dst, width, pitch, height,
                    cmyk ? TurboJpeg.TJPF_CMYK : TurboJpeg.TJPF_RGB, flags) == 0;
        } catch (Throwable t) {
            throw DecoderFailure.of("tjDecompress2 failed", t);
        }
    }

    private static boolean isUnwritten(MemorySegment lastBytes) {
        return MemorySegment.mismatch(lastBytes, 0, lastBytes.byteSize(),
                MemorySegment.ofArray(UNWRITTEN), 0, lastBytes.byteSize()) == -1;
    }

    @Override
    public void close() {
        try {
            destroy(handle);
            if (transformer != null) {
                destroy(transformer);
            }
        } finally {
            arena.close();
        }
    }

    private void destroy(MemorySegment h) {
        try {
            int ignored = (int) tj.destroy.invokeExact(h);
        } catch (Throwable t) {
            // Nothing more can be done about a handle that will not close.
        }
    }

    /**
     * Decodes at {@code scale} only the part of the image that holds the source region
     * {@code [left, left + width) x [top, top + height)}: libjpeg-turbo's lossless crop
     * ({@code tjTransform} with {@code TJXOPT_CROP}) cuts the JPEG down to the MCUs that hold the
     * region, without decoding its pixels, and the smaller JPEG is then decoded. The pixels are
     * those of a whole decode at {@code scale}, but along the crop's edges, where the chroma
     * upsampling no longer sees the MCUs cut off (a level or two of difference there).
     *
     * <p>Returns null whenever this is not the cheaper way or not possible: a crop too large to
     * save time ({@link #worthCropping}), a CMYK JPEG or a subsampling without an MCU
     * size, a scale that does not fall on whole pixels at the crop's corner, and any warning or
     * error of the library on the way ({@code always} skips only the first test, for tests). The caller then decodes the whole image, whose path
     * judges damaged data as the options say; a damaged JPEG costs one failed crop more.
     *
     * <p>With libjpeg-turbo 3 the region is decoded in place instead ({@link TurboJpegRegion}).
     *
     * <p>Memory: the lossless crop reads the whole image's DCT coefficients into libjpeg's own
     * memory first, 2 bytes a sample: as much as the decoded RGB for 4:2:0, twice it for 4:4:4,
     * freed before this returns; the caller's pixel limit bounds it as it bounds a whole decode.
     */
    DecodedRegion decodeRegion(MemorySegment input, Header header, int left, int top, int width, int height,
                               ScalingFactor scale, NativeBuffer out, boolean always, boolean allowTruncated)
            throws DecoderFailure {
        if (region != null) {
            return region.decode(handle, input, header, left, top, width, height, scale, out, allowTruncated);
        }
        int mcuW = TurboJpeg.mcuWidth(header.subsampling);
        int mcuH = TurboJpeg.mcuHeight(header.subsampling);
        boolean cmyk = header.colorspace == TurboJpeg.TJCS_CMYK || header.colorspace == TurboJpeg.TJCS_YCCK;
        if (mcuW == 0 || mcuH == 0 || cmyk) {
            return null;
        }
        int x0 = Math.max(0, Math.min(left, header.width - 1)) / mcuW * mcuW;
        int y0 = Math.max(0, Math.min(top, header.height - 1)) / mcuH * mcuH;
        // At least 8 pixels a side: tjDecompress2 picks the largest scaling factor that fits the
        // size it is given, and below 8 pixels a larger factor than the one wanted can give the
        // same size (3 pixels at 5/8 and at 1/2 are both 2).
        int x1 = Math.clamp(Math.max((long) left + width, x0 + 8L), x0 + 1, header.width);
        int y1 = Math.clamp(Math.max((long) top + height, y0 + 8L), y0 + 1, header.height);
        int cw = x1 - x0;
        int ch = y1 - y0;
        if (cw < 8 || ch < 8) {
            return null;
        }
        if (!always && !worthCropping(input.byteSize(), header.width, header.height, scale, (long) cw * ch)
                || (long) x0 * scale.num() % scale.denom() != 0 || (long) y0 * scale.num() % scale.denom() != 0) {
            return null;
        }
        if (transformer == null) {
            try {
                transformer = (MemorySegment) tj.initTransform.invokeExact();
            } catch (Throwable t) {
                throw DecoderFailure.of("tjInitTransform failed", t);
            }
            if (transformer.equals(MemorySegment.NULL)) {
                transformer = null;
                return null;
            }
        }
        xform.fill((byte) 0);  // op TJXOP_NONE, no data, no custom filter
        xform.set(JAVA_INT, 0, x0);
        xform.set(JAVA_INT, 4, y0);
        xform.set(JAVA_INT, 8, cw);
        xform.set(JAVA_INT, 12, ch);
        xform.set(JAVA_INT, 20, TurboJpeg.TJXOPT_CROP | TurboJpeg.TJXOPT_COPYNONE);
        dstBuf.set(ADDRESS, 0, MemorySegment.NULL);  // the library allocates the crop's JPEG (freed below)
        dstSize.set(JAVA_LONG, 0, 0);
        int flags = TurboJpeg.TJFLAG_LIMITSCANS | TurboJpeg.TJFLAG_STOPONWARNING;
        int rc;
        try {
            rc = (int) tj.transform.invokeExact(transformer, input, input.byteSize(), 1, dstBuf, dstSize, xform, flags);
        } catch (Throwable t) {
            throw DecoderFailure.of("tjTransform failed", t);
        }
        MemorySegment jpeg = dstBuf.get(ADDRESS, 0);
        try {
            long size = dstSize.get(JAVA_LONG, 0);
            if (rc != 0 || jpeg.equals(MemorySegment.NULL) || size <= 0) {
                // A fresh transformer for the next crop: one that failed mid-header may stay stuck
                // in it, as the decompressor does (see renewHandle).
                destroy(transformer);
                transformer = null;
                return null;
            }
            MemorySegment cropped = jpeg.reinterpret(size);
            int w = scale.scale(cw);
            int h = scale.scale(ch);
            int pitch = Math.multiplyExact(w, 3);
            MemorySegment dst = out.ensure(Math.multiplyExact((long) pitch, h));
            if (!decompress(cropped, dst, w, pitch, h, false, flags)) {
                return null;
            }
            DecodedImage image = new DecodedImage(dst.asSlice(0, (long) pitch * h), w, h, scale, NAME);
            return new DecodedRegion(image, (int) ((long) x0 * scale.num() / scale.denom()),
                    (int) ((long) y0 * scale.num() / scale.denom()), scale.scale(header.width), scale.scale(header.height));
        } finally {
            if (!jpeg.equals(MemorySegment.NULL)) {
                try {
                    tj.free.invokeExact(jpeg);
                } catch (Throwable t) {
                    // tjFree is free(): it does not fail.
                }
            }
        }
    }

    /**
     * Whether decoding a crop of {@code cropArea} source pixels on its own costs less than the
     * whole decode. The lossless crop still entropy-decodes the whole image (it cannot find the
     * crop's blocks otherwise), so it saves only the pixel work outside the crop: worth it when
     * the crop is small and the pixel work a large part of the decode, that is, when the JPEG
     * has few bytes a pixel ({@link #PIXELS_PER_BYTE}). On noisy quality-90 images (W3's) a crop
     * pays below about 12% of the image; on smooth ones, below about 45%.
     */
    static boolean worthCropping(long jpegBytes, int width, int height, ScalingFactor scale, long cropArea) {
        double area = (double) width * height;
        double pixelWork = area * scale.value() * scale.value();
        double entropyWork = PIXELS_PER_BYTE * jpegBytes;
        return cropArea <= CROP_MARGIN * pixelWork / (pixelWork + entropyWork) * area;
    }

    /** What tjDecompressHeader3 says: the full size, the subsampling (TJSAMP) and the JPEG's colour space (TJCS). */
    record Header(int width, int height, int subsampling, int colorspace) {
        String format() {
            return switch (colorspace) {
                case TurboJpeg.TJCS_GRAY -> "JPEG (grayscale)";
                case TurboJpeg.TJCS_CMYK -> "JPEG (CMYK)";
                case TurboJpeg.TJCS_YCCK -> "JPEG (YCCK)";
                case TurboJpeg.TJCS_RGB -> "JPEG (RGB)";
                default -> "JPEG";
            };
        }
    }
}
