package dev.stoker.tensor;

/**
 * Conversions between {@code float} and the two 16-bit float formats.
 *
 * <p>float16 uses the JDK's IEEE conversions; bfloat16 is the top half of a float32, rounded to
 * nearest-even as PyTorch rounds it, with NaN kept a NaN.
 */
public final class HalfFloats {
    private HalfFloats() {}

    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    public static short floatToBf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) {
            return (short) ((bits >>> 16) | 0x40); // keep it a quiet NaN after truncation
        }
        int roundingBias = 0x7FFF + ((bits >>> 16) & 1);
        return (short) ((bits + roundingBias) >>> 16);
    }

    public static float f16ToFloat(short bits) {
        return Float.float16ToFloat(bits);
    }

    public static short floatToF16(float value) {
        return Float.floatToFloat16(value);
    }
}
