package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

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
     * Why a WebP is refused before either decoder sees it, or null:
     * <ul>
     *   <li>an animation, unless libwebpdemux reads it ({@code readsAnimations}): TwelveMonkeys'
     *       first frame of a lossy animation is far from PIL's (PIL gives the first frame);</li>
     *   <li>a file shorter than its RIFF header says: cut short. libwebp refuses it,
     *       TwelveMonkeys decodes a lossless one without a word (the rest black);</li>
     *   <li>a still image whose bitstream (VP8 or VP8L) is not the size of its canvas (VP8X), as
     *       libwebp refuses it. TwelveMonkeys sizes its work from the bitstream, the pixel limit
     *       is checked against the canvas: a small canvas over a frame of 16383 x 16383 ran it out
     *       of heap (found by FormatCorruptionFuzzTest, seed 871).</li>
     * </ul>
     */
    static String problem(MemorySegment data, boolean readsAnimations) {
        boolean animated = animated(data);
        if (!readsAnimations && animated) {
            return "an animated WebP: Stoker reads still WebP images only, where PIL gives the first frame";
        }
        long riffSize = Integer.toUnsignedLong(data.get(LE_INT, 4));
        if (riffSize + 8 > data.byteSize()) {
            return "damaged or truncated data: its RIFF header gives " + (riffSize + 8) + " bytes, and the file has "
                    + data.byteSize();
        }
        return animated ? null : bitstreamProblem(data.asSlice(0, riffSize + 8));
    }

    /** The first VP8 or VP8L chunk's size against the VP8X canvas, when there is one; null when they agree. */
    private static String bitstreamProblem(MemorySegment riff) {
        long canvasWidth = -1;
        long canvasHeight = -1;
        // Chunks: a fourcc, a little-endian size, the payload padded to an even length.
        for (long at = 12; at + 8 <= riff.byteSize(); ) {
            long size = Integer.toUnsignedLong(riff.get(LE_INT, at + 4));
            long payload = at + 8;
            if (payload + size > riff.byteSize()) {
                return "damaged or truncated data: a chunk of " + size + " bytes at byte " + at + " runs past the end";
            }
            String fourcc = fourcc(riff, at);
            if (fourcc.equals("VP8X") && size >= 10) {
                canvasWidth = 1 + uint24(riff, payload + 4);
                canvasHeight = 1 + uint24(riff, payload + 7);
            } else if (fourcc.equals("VP8 ") || fourcc.equals("VP8L")) {
                long[] wh = fourcc.equals("VP8 ") ? vp8Size(riff, payload, size) : vp8lSize(riff, payload, size);
                if (wh == null) {
                    return "damaged data: the " + fourcc.trim() + " bitstream's header is not one";
                }
                if (canvasWidth >= 0 && (wh[0] != canvasWidth || wh[1] != canvasHeight)) {
                    return "damaged data: the " + fourcc.trim() + " bitstream is " + wh[0] + "x" + wh[1]
                            + ", its canvas " + canvasWidth + "x" + canvasHeight;
                }
                return null;
            }
            at = payload + size + (size & 1);
        }
        return null;  // no bitstream: the decoders say so
    }

    /** A VP8 key frame's size: frame tag (3 bytes), start code 9d 01 2a, 14-bit width and height. */
    private static long[] vp8Size(MemorySegment riff, long payload, long size) {
        if (size < 10 || riff.get(JAVA_BYTE, payload + 3) != (byte) 0x9d || riff.get(JAVA_BYTE, payload + 4) != 0x01
                || riff.get(JAVA_BYTE, payload + 5) != 0x2a) {
            return null;
        }
        return new long[] {uint16(riff, payload + 6) & 0x3FFF, uint16(riff, payload + 8) & 0x3FFF};
    }

    /** A VP8L header's size: signature 0x2f, then width - 1 and height - 1 in 14 bits each. */
    private static long[] vp8lSize(MemorySegment riff, long payload, long size) {
        if (size < 5 || riff.get(JAVA_BYTE, payload) != 0x2f) {
            return null;
        }
        long bits = Integer.toUnsignedLong(riff.get(LE_INT, payload + 1));
        return new long[] {1 + (bits & 0x3FFF), 1 + ((bits >>> 14) & 0x3FFF)};
    }

    private static String fourcc(MemorySegment data, long at) {
        char[] c = new char[4];
        for (int i = 0; i < 4; i++) {
            c[i] = (char) Byte.toUnsignedInt(data.get(JAVA_BYTE, at + i));
        }
        return new String(c);
    }

    private static long uint16(MemorySegment data, long at) {
        return Byte.toUnsignedInt(data.get(JAVA_BYTE, at)) | (long) Byte.toUnsignedInt(data.get(JAVA_BYTE, at + 1)) << 8;
    }

    private static long uint24(MemorySegment data, long at) {
        return uint16(data, at) | (long) Byte.toUnsignedInt(data.get(JAVA_BYTE, at + 2)) << 16;
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
            } catch (Error | RuntimeException e) {
                throw e;  // not the file's fault (an OutOfMemoryError is not a damaged image)
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

    /**
     * Decodes {@code input} (off-heap), whose size {@code header} gives and the caller checked, into
     * {@code out}: a still image, or an animation's first frame.
     */
    static DecodedImage decode(LibWebp lib, MemorySegment input, ImageHeader header, NativeBuffer out)
            throws DecoderFailure {
        if (animated(input)) {
            return firstFrame(lib, input, header, out);
        }
        int stride = Math.multiplyExact(header.width(), 3);
        MemorySegment dst = out.ensure(Math.multiplyExact((long) stride, header.height()));
        MemorySegment written;
        try {
            written = (MemorySegment) lib.decodeRgbInto.invokeExact(input, input.byteSize(), dst, dst.byteSize(), stride);
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new DecoderFailure("WebPDecodeRGBInto failed: " + t);
        }
        if (written.equals(MemorySegment.NULL)) {
            throw new DecoderFailure("libwebp cannot decode it: damaged or truncated data");
        }
        return new DecodedImage(dst, header.width(), header.height(), ScalingFactor.ONE, NAME);
    }

    /**
     * An animation's first frame as PIL reads it, through libwebpdemux's WebPAnimDecoder (RGBA,
     * not premultiplied; what the frame does not cover is transparent black): alpha dropped. The
     * canvas is the size WebPGetInfo gave, checked against the pixel limit; the decoder's own
     * canvas is freed before returning.
     */
    private static DecodedImage firstFrame(LibWebp lib, MemorySegment input, ImageHeader header, NativeBuffer out)
            throws DecoderFailure {
        LibWebp.Demux demux = lib.demux;
        if (demux == null) {
            throw new DecoderFailure("an animated WebP, and libwebpdemux is not installed");
        }
        long pixels = header.pixels();
        MemorySegment dst = out.ensure(3 * pixels);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment options = arena.allocate(64, 8);   // WebPAnimDecoderOptions: 36 bytes
            MemorySegment data = arena.allocate(16, 8);      // WebPData: pointer, size
            MemorySegment info = arena.allocate(64, 8);      // WebPAnimInfo: 36 bytes
            MemorySegment frame = arena.allocate(ADDRESS);
            MemorySegment timestamp = arena.allocate(JAVA_INT);
            data.set(ADDRESS, 0, input);
            data.set(JAVA_LONG, 8, input.byteSize());
            MemorySegment decoder;
            try {
                if ((int) demux.optionsInit().invokeExact(options, LibWebp.Demux.ABI_VERSION) == 0) {
                    throw new DecoderFailure("libwebpdemux refuses ABI version " + LibWebp.Demux.ABI_VERSION);
                }
                options.set(JAVA_INT, 0, LibWebp.Demux.MODE_RGBA);
                decoder = (MemorySegment) demux.newDecoder().invokeExact(data, options, LibWebp.Demux.ABI_VERSION);
            } catch (DecoderFailure | Error | RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new DecoderFailure("WebPAnimDecoderNew failed: " + t);
            }
            if (decoder.equals(MemorySegment.NULL)) {
                throw new DecoderFailure("libwebpdemux cannot read this animation: damaged or truncated data");
            }
            try {
                int ok = (int) demux.getInfo().invokeExact(decoder, info);
                int width = info.get(JAVA_INT, 0);
                int height = info.get(JAVA_INT, 4);
                if (ok == 0 || width != header.width() || height != header.height()) {
                    throw new DecoderFailure("the animation's canvas is " + width + "x" + height + ", not the "
                            + header.width() + "x" + header.height() + " of its header");
                }
                if ((int) demux.getNext().invokeExact(decoder, frame, timestamp) == 0) {
                    throw new DecoderFailure("libwebpdemux cannot decode the first frame: damaged or truncated data");
                }
                MemorySegment rgba = frame.get(ADDRESS, 0).reinterpret(4 * pixels);
                for (long i = 0; i < pixels; i++) {
                    MemorySegment.copy(rgba, 4 * i, dst, 3 * i, 3);
                }
            } catch (DecoderFailure | Error | RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new DecoderFailure("WebPAnimDecoder failed: " + t);
            } finally {
                try {
                    demux.delete().invokeExact(decoder);
                } catch (Throwable t) {
                    // nothing more can be done about a decoder that will not free
                }
            }
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
