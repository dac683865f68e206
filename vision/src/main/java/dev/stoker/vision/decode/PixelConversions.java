package dev.stoker.vision.decode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Colour conversions into 8-bit RGB, with PIL's formulas so that the pixels match PIL's. */
final class PixelConversions {
    private PixelConversions() {}

    /**
     * Turns {@code pixels} CMYK pixels (4 bytes each, from the start of {@code buf}) into RGB
     * (3 bytes each, from the start) in place: safe because the write position never passes the
     * read position. {@code inverted} says the bytes are Adobe's inverted CMYK, as stored in the
     * JPEG (PIL reads every CMYK JPEG as {@code "CMYK;I"}).
     */
    static void cmykToRgbInPlace(MemorySegment buf, long pixels, boolean inverted) {
        int flip = inverted ? 255 : 0;
        for (long i = 0; i < pixels; i++) {
            long in = i * 4;
            int c = Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, in)) ^ flip;
            int m = Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, in + 1)) ^ flip;
            int y = Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, in + 2)) ^ flip;
            int k = Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, in + 3)) ^ flip;
            long out = i * 3;
            buf.set(ValueLayout.JAVA_BYTE, out, (byte) cmykChannel(c, k));
            buf.set(ValueLayout.JAVA_BYTE, out + 1, (byte) cmykChannel(m, k));
            buf.set(ValueLayout.JAVA_BYTE, out + 2, (byte) cmykChannel(y, k));
        }
    }

    /** PIL's {@code cmyk2rgb} for one channel: {@code (255 - k) - (ink * (255 - k)) / 255}, rounded as PIL does. */
    static int cmykChannel(int ink, int k) {
        int nk = 255 - k;
        int tmp = ink * nk + 128;
        int v = nk - (((tmp >> 8) + tmp) >> 8);
        return v < 0 ? 0 : Math.min(v, 255);
    }
}
