package dev.stoker.vision.decode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Decoded pixels: 8-bit RGB, rows top to bottom, each row {@code width * 3} bytes (HWC), in a
 * buffer that belongs to the {@link DecodeSession} that decoded it.
 *
 * <p>NOTE: a view, valid until the session decodes again or is closed. Copy what must outlive it.
 *
 * @param pixels exactly {@code width * height * 3} bytes
 * @param width  pixels per row
 * @param height rows
 * @param scale  the DCT scaling it was decoded at ({@link ScalingFactor#ONE} for full size)
 * @param decoder which decoder produced it: {@code "libjpeg-turbo"} or {@code "ImageIO"}
 */
public record DecodedImage(MemorySegment pixels, int width, int height, ScalingFactor scale, String decoder) {
    public DecodedImage {
        if (pixels.byteSize() != 3L * width * height) {
            throw new IllegalArgumentException(width + "x" + height + " RGB pixels need " + 3L * width * height
                    + " bytes, not " + pixels.byteSize());
        }
    }

    /** Bytes per row. */
    public int rowBytes() {
        return width * 3;
    }

    /** Channel {@code c} (0 red, 1 green, 2 blue) of the pixel at column {@code x}, row {@code y}, 0 to 255. */
    public int get(int x, int y, int c) {
        return Byte.toUnsignedInt(pixels.get(ValueLayout.JAVA_BYTE, ((long) y * width + x) * 3 + c));
    }

    /** A copy of the pixels on the heap. */
    public byte[] toByteArray() {
        return pixels.toArray(ValueLayout.JAVA_BYTE);
    }
}
