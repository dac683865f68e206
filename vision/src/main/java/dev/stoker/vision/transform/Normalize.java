package dev.stoker.vision.transform;

import java.util.Arrays;

/**
 * torchvision's {@code ToTensor()} followed by {@code Normalize(mean, std)}: a channel value
 * {@code v} in 0..255 becomes {@code (v / 255 - mean[c]) / std[c]}, computed in float32 in that
 * order, so the result is bit for bit torchvision's. There are only 256 inputs per channel, so the
 * values are tabulated once.
 *
 * <pre>{@code
 * Normalize n = Normalize.IMAGENET;
 * n.apply(0, 255);     // (1 - 0.485) / 0.229 = 2.2489083
 * Normalize.NONE;      // ToTensor alone: v / 255
 * }</pre>
 *
 * @param mean per channel (R, G, B)
 * @param std  per channel, none zero
 */
public record Normalize(float[] mean, float[] std) {
    /** The ImageNet statistics every torchvision model is trained with. */
    public static final Normalize IMAGENET = new Normalize(new float[] {0.485f, 0.456f, 0.406f},
            new float[] {0.229f, 0.224f, 0.225f});
    /** {@code ToTensor()} without {@code Normalize}: values in [0, 1]. */
    public static final Normalize NONE = new Normalize(new float[] {0f, 0f, 0f}, new float[] {1f, 1f, 1f});

    public Normalize {
        if (mean.length != 3 || std.length != 3) {
            throw new IllegalArgumentException("mean and std need 3 values (R, G, B), not " + mean.length + " and " + std.length);
        }
        for (float s : std) {
            if (s == 0 || !Float.isFinite(s)) {
                throw new IllegalArgumentException("std " + Arrays.toString(std) + " has a zero or non-finite value");
            }
        }
        mean = mean.clone();
        std = std.clone();
    }

    /** The normalized value of channel {@code c} at 8-bit value {@code v}. */
    public float apply(int c, int v) {
        float unit = (float) v / 255f;
        return (unit - mean[c]) / std[c];
    }

    /** Channel {@code c}'s mean, without the copy {@link #mean()} makes. */
    float meanOf(int c) {
        return mean[c];
    }

    /** Channel {@code c}'s std, without the copy {@link #std()} makes. */
    float stdOf(int c) {
        return std[c];
    }

    /** The 3 x 256 table of {@link #apply} values. */
    float[][] table() {
        float[][] t = new float[3][256];
        for (int c = 0; c < 3; c++) {
            for (int v = 0; v < 256; v++) {
                t[c][v] = apply(c, v);
            }
        }
        return t;
    }

    @Override
    public float[] mean() {
        return mean.clone();
    }

    @Override
    public float[] std() {
        return std.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Normalize n && Arrays.equals(mean, n.mean) && Arrays.equals(std, n.std);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(mean) + Arrays.hashCode(std);
    }

    @Override
    public String toString() {
        return "Normalize(mean=" + Arrays.toString(mean) + ", std=" + Arrays.toString(std) + ")";
    }
}
