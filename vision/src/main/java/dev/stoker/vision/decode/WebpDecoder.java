package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * WebP through libwebp ({@link LibWebp}): the header's size, then the pixels straight into the
 * session's buffer as RGB, alpha dropped as PIL's {@code convert("RGB")} drops it. The pixels are
 * PIL's exactly, lossy ones included: PIL decodes with the same library, not premultiplied.
 *
 * <p>Safety: {@code WebPDecodeRGBInto} is given the buffer's size and never writes past it; the
 * buffer is sized from the header's width and height after the pixel limit was checked. Data
 * that ends early or is damaged is refused (libwebp's simple API decodes all or nothing, and PIL
 * refuses such a WebP too, truncated images allowed or not).
 */
final class WebpDecoder {
    static final String NAME = "libwebp";

    private WebpDecoder() {}

    /** Whether {@code data} starts with a RIFF header of form WEBP. */
    static boolean isWebp(MemorySegment data) {
        return data.byteSize() >= 12
                && data.get(JAVA_BYTE, 0) == 'R' && data.get(JAVA_BYTE, 1) == 'I'
                && data.get(JAVA_BYTE, 2) == 'F' && data.get(JAVA_BYTE, 3) == 'F'
                && data.get(JAVA_BYTE, 8) == 'W' && data.get(JAVA_BYTE, 9) == 'E'
                && data.get(JAVA_BYTE, 10) == 'B' && data.get(JAVA_BYTE, 11) == 'P';
    }

    /**
     * Why a WebP is refused before either decoder sees it, or null. An animation: libwebp's simple
     * API reads only still images, and TwelveMonkeys' first frame of a lossy animation is far
     * from PIL's (PIL gives the first frame). A file shorter than its RIFF header says: cut short;
     * libwebp refuses it, TwelveMonkeys decodes a lossless one without a word (the rest black).
     */
    static String problem(MemorySegment data) {
        if (animated(data)) {
            return "an animated WebP: Stoker reads still WebP images only, where PIL gives the first frame";
        }
        long riffSize = Integer.toUnsignedLong(data.get(LE_INT, 4));
        if (riffSize + 8 > data.byteSize()) {
            return "damaged or truncated data: its RIFF header gives " + (riffSize + 8) + " bytes, and the file has "
                    + data.byteSize();
        }
        return null;
    }

    private static final ValueLayout.OfInt LE_INT = JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).withByteAlignment(1);

    /** The size in the header of {@code input} (off-heap); a failure means libwebp finds no valid header. */
    static ImageHeader header(LibWebp lib, MemorySegment input) throws DecoderFailure {
        int width;
        int height;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_INT, 2);
            int ok;
            try {
                ok = (int) lib.getInfo.invokeExact(input, input.byteSize(), size, size.asSlice(4));
            } catch (Throwable t) {
                throw new DecoderFailure("WebPGetInfo failed: " + t);
            }
            if (ok == 0) {
                throw new DecoderFailure("libwebp finds no valid WebP header");
            }
            width = size.getAtIndex(JAVA_INT, 0);
            height = size.getAtIndex(JAVA_INT, 1);
        }
        if (width < 1 || height < 1) {
            throw new DecoderFailure("the header gives a size of " + width + "x" + height);
        }
        return new ImageHeader(width, height, "WebP");
    }

    /** Decodes {@code input} (off-heap), whose size {@code header} gives and the caller checked, into {@code out}. */
    static DecodedImage decode(LibWebp lib, MemorySegment input, ImageHeader header, NativeBuffer out)
            throws DecoderFailure {
        int stride = Math.multiplyExact(header.width(), 3);
        MemorySegment dst = out.ensure(Math.multiplyExact((long) stride, header.height()));
        MemorySegment written;
        try {
            written = (MemorySegment) lib.decodeRgbInto.invokeExact(input, input.byteSize(), dst, dst.byteSize(), stride);
        } catch (Throwable t) {
            throw new DecoderFailure("WebPDecodeRGBInto failed: " + t);
        }
        if (written.equals(MemorySegment.NULL)) {
            throw new DecoderFailure("libwebp cannot decode it: damaged or truncated data");
        }
        return new DecodedImage(dst, header.width(), header.height(), ScalingFactor.ONE, NAME);
    }

    /** Whether the extended header (VP8X) says the file is an animation. */
    private static boolean animated(MemorySegment data) {
        return data.byteSize() > 20
                && data.get(JAVA_BYTE, 12) == 'V' && data.get(JAVA_BYTE, 13) == 'P'
                && data.get(JAVA_BYTE, 14) == '8' && data.get(JAVA_BYTE, 15) == 'X'
                && (data.get(JAVA_BYTE, 20) & 0x02) != 0;
    }
}
