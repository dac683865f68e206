package dev.stoker.formats.mds;

import java.lang.foreign.MemorySegment;

/**
 * A value of MDS's {@code pil} encoding, undecoded: PIL's {@code Image.tobytes()} with its size
 * and mode ({@code [u32 width][u32 height][u32 mode length][mode][pixels]}). For modes whose pixel
 * size Stoker knows ({@code 1, L, P, LA, La, PA, I;16, RGB, YCbCr, LAB, HSV, RGBA, RGBa, RGBX,
 * CMYK, I, F}) the pixel bytes were checked to be exactly {@code width * height} pixels.
 *
 * <pre>{@code
 * MdsPilImage img = sample.pil("image");   // mode "RGB": pixels are height x width x 3 uint8
 * Tensor hwc = new Tensor(img.pixels(), DType.U8, Shape.of(img.height(), img.width(), 3));
 * }</pre>
 *
 * @param width  in pixels
 * @param height in pixels
 * @param mode   PIL's mode name
 * @param pixels the raw pixels, a view of the shard (valid until the dataset is closed)
 */
public record MdsPilImage(long width, long height, String mode, MemorySegment pixels) {

    /** Bytes per row of pixels for {@code mode} and {@code width}, or -1 for a mode Stoker does not know. */
    static long rowBytes(String mode, long width) {
        return switch (mode) {
            case "1" -> (width + 7) / 8;
            case "L", "P" -> width;
            case "LA", "La", "PA", "I;16", "I;16B", "I;16L" -> 2 * width;
            case "RGB", "YCbCr", "LAB", "HSV" -> 3 * width;
            case "RGBA", "RGBa", "RGBX", "CMYK", "I", "F" -> 4 * width;
            default -> -1;
        };
    }
}
