package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One TurboJPEG decompressor handle and its scratch memory: the libjpeg-turbo half of a
 * {@link DecodeSession}. Used by one thread at a time; {@link #close()} destroys the handle.
 *
 * <p>Safety: the library writes {@code pitch * height} bytes at most for the width and height it
 * is given, and it is always given a buffer of at least that size, sized from the header it has
 * just parsed after the pixel limit was checked.
 */
final class TurboJpegDecoder implements AutoCloseable {
    static final String NAME = "libjpeg-turbo";
    private final TurboJpeg tj;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle;
    private final MemorySegment ints;  // width, height, subsampling, colour space

    TurboJpegDecoder(TurboJpeg tj) {
        this.tj = tj;
        MemorySegment h;
        try {
            h = (MemorySegment) tj.initDecompress.invokeExact();
        } catch (Throwable t) {
            arena.close();
            throw new IllegalStateException("tjInitDecompress failed", t);
        }
        if (h.equals(MemorySegment.NULL)) {
            arena.close();
            throw new IllegalStateException("tjInitDecompress returned no handle");
        }
        this.handle = h;
        this.ints = arena.allocate(JAVA_INT, 4);
    }

    /** The header as libjpeg-turbo reads it; a failure means "not a JPEG it reads". */
    Header header(MemorySegment input) throws DecoderFailure {
        // Cleared first: on some damaged headers the call returns 0 without writing the size,
        // and the last image's size must not be taken for this one's.
        ints.fill((byte) 0);
        int rc;
        try {
            rc = (int) tj.decompressHeader3.invokeExact(handle, input, input.byteSize(),
                    ints, ints.asSlice(4), ints.asSlice(8), ints.asSlice(12));
        } catch (Throwable t) {
            throw new DecoderFailure("tjDecompressHeader3 failed: " + t);
        }
        if (rc != 0) {
            throw new DecoderFailure(tj.errorMessage(handle));
        }
        int width = ints.getAtIndex(JAVA_INT, 0);
        int height = ints.getAtIndex(JAVA_INT, 1);
        int colorspace = ints.getAtIndex(JAVA_INT, 3);
        if (width < 1 || height < 1) {
            throw new DecoderFailure("the header gives a size of " + width + "x" + height);
        }
        return new Header(width, height, colorspace);
    }

    /**
     * Decodes {@code input} at {@code scale} into {@code out}. The header must already have been
     * checked against the pixel limit by the caller.
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
        int rc;
        try {
            rc = (int) tj.decompress2.invokeExact(handle, input, input.byteSize(), dst, width, pitch, height,
                    cmyk ? TurboJpeg.TJPF_CMYK : TurboJpeg.TJPF_RGB, flags);
        } catch (Throwable t) {
            throw new DecoderFailure("tjDecompress2 failed: " + t);
        }
        if (rc != 0) {
            String message = tj.errorMessage(handle);
            boolean warning = tj.lastErrorWasWarning(handle);
            if (!(warning && allowTruncated)) {
                // A warning here is damaged data: ImageIO (libjpeg too) would warn on it as well,
                // after decoding the whole file, which for a crafted progressive file takes seconds.
                throw new DecoderFailure((warning ? "damaged or truncated data: " : "") + message, warning);
            }
        }
        long pixels = (long) width * height;
        if (cmyk) {
            PixelConversions.cmykToRgbInPlace(dst, pixels, true);
        }
        return new DecodedImage(dst.asSlice(0, pixels * 3), width, height, scale, NAME);
    }

    @Override
    public void close() {
        try {
            int ignored = (int) tj.destroy.invokeExact(handle);
        } catch (Throwable t) {
            // Nothing more can be done about a handle that will not close.
        } finally {
            arena.close();
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
