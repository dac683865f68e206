package dev.stoker.vision.decode;

import java.util.List;

/**
 * A size a JPEG can be decoded at directly, {@code num/denom} of the full size, by scaling in the
 * DCT domain: decoding at 1/2 reads the same data but runs a 4x4 instead of an 8x8 inverse DCT and
 * writes a quarter of the pixels. PIL's {@code Image.draft} uses the same libjpeg feature.
 *
 * <pre>{@code
 * ScalingFactor half = new ScalingFactor(1, 2);
 * half.scale(500);   // 250
 * half.scale(375);   // 188 (rounded up, as libjpeg does)
 * }</pre>
 *
 * @param num   numerator, at least 1
 * @param denom denominator, at least 1
 */
public record ScalingFactor(int num, int denom) {
    /** Full size. */
    public static final ScalingFactor ONE = new ScalingFactor(1, 1);

    public ScalingFactor {
        if (num < 1 || denom < 1) {
            throw new IllegalArgumentException("a scaling factor is a positive fraction, not " + num + "/" + denom);
        }
    }

    /** The factor as a number. */
    public double value() {
        return (double) num / denom;
    }

    /** A dimension at this scale, rounded up: libjpeg's {@code TJSCALED}. */
    public int scale(int dimension) {
        return (int) (((long) dimension * num + denom - 1) / denom);
    }

    /**
     * The smallest of the factors 1/8, 1/4, 1/2 (those in {@code available}) that keeps a region
     * of {@code regionWidth x regionHeight} source pixels at least {@code outWidth x outHeight},
     * else {@link #ONE}: as PIL's {@code draft}, the image is never decoded smaller than the
     * output it is resized to. Only the power-of-two factors are used: libjpeg-turbo has SIMD
     * code for those, the others (3/8, 5/8, ...) are slower than a full decode.
     */
    public static ScalingFactor choose(List<ScalingFactor> available, double regionWidth, double regionHeight,
                                       int outWidth, int outHeight) {
        ScalingFactor best = ONE;
        for (ScalingFactor f : available) {
            boolean powerOfTwo = f.num == 1 && (f.denom == 2 || f.denom == 4 || f.denom == 8);
            if (powerOfTwo && f.value() < best.value()
                    && regionWidth * f.value() >= outWidth && regionHeight * f.value() >= outHeight) {
                best = f;
            }
        }
        return best;
    }

    @Override
    public String toString() {
        return num + "/" + denom;
    }
}
