package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

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
    private final TurboJpeg tj;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment ints;  // width, height, subsampling, colour space
    private MemorySegment handle;

    TurboJpegDecoder(TurboJpeg tj) {
        this.tj = tj;
        try {
            this.handle = newHandle(tj);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        this.ints = arena.allocate(JAVA_INT, 4);
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
        return new Header(width, height, colorspace);
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

    /** What tjDecompressHeader3 says: the full size and the JPEG's colour space (TJCS). */
    record Header(int width, int height, int colorspace) {
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
