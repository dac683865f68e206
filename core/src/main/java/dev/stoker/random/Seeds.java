package dev.stoker.random;

/**
 * Key derivation and random bits for samplers, synthetic data and per-worker generators, all built on SplitMix64 (Steele, Lea and
 * Flood, 2014; the generator behind {@link java.util.SplittableRandom}), so every order is a pure
 * function of its inputs and can be reproduced bit for bit in any language.
 *
 * <p>Definitions, with {@code γ = 0x9E3779B97F4A7C15} and all arithmetic modulo 2^64:
 * <ul>
 *   <li>{@code mix64(z)}: SplitMix64's output function (Stafford's variant 13):
 *       {@code z = (z ^ z>>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>>27) * 0x94D049BB133111EB;
 *       return z ^ z>>>31}.
 *   <li>{@code mix(seed, w1, ..., wk)}: {@code h = mix64(seed + γ)}, then for each word
 *       {@code h = mix64((h ^ w) + γ)}.
 *   <li>{@code splitMix(s, i)}: output {@code i} (from 0) of the SplitMix64 generator started at
 *       state {@code s}, that is {@code mix64(s + (i + 1)·γ)}; equal to the {@code (i+1)}-th
 *       {@code nextLong()} of {@code new SplittableRandom(s)}. Being a counter, it is random-access.
 * </ul>
 *
 * <pre>{@code
 * long stream = Seeds.mix(seed, epoch);
 * long bits = Seeds.splitMix(stream, 0);
 * }</pre>
 */
public final class Seeds {
    /** SplitMix64's increment: 2^64 divided by the golden ratio, rounded to odd. */
    public static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private Seeds() {
    }

    /** SplitMix64's output function: a bijection on 64-bit values with full avalanche. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A key from a seed, an epoch and further words; see the class comment for the formula. */
    public static long mix(long seed, long epoch, long... more) {
        long h = mix64(seed + GOLDEN_GAMMA);
        h = mix64((h ^ epoch) + GOLDEN_GAMMA);
        for (long w : more) {
            h = mix64((h ^ w) + GOLDEN_GAMMA);
        }
        return h;
    }

    /** Output {@code i} (from 0) of the SplitMix64 stream whose state starts at {@code stream}. */
    public static long splitMix(long stream, long i) {
        return mix64(stream + (i + 1) * GOLDEN_GAMMA);
    }

    /**
     * A uniform value in {@code [0, bound)} from 64 random bits, by Lemire's multiply-shift with
     * rejection, so without bias. A rejected candidate {@code c} (probability below
     * {@code bound / 2^64}) is replaced by {@code mix64(c + γ)}, which keeps every draw a function
     * of its own position in the stream.
     */
    public static long below(long bits, long bound) {
        long low = bits * bound;
        if (Long.compareUnsigned(low, bound) < 0) {
            long threshold = Long.remainderUnsigned(-bound, bound);
            while (Long.compareUnsigned(low, threshold) < 0) {
                bits = mix64(bits + GOLDEN_GAMMA);
                low = bits * bound;
            }
        }
        return Math.unsignedMultiplyHigh(bits, bound);
    }

    /** A double in {@code [0, 1)} from the top 53 bits. */
    public static double unit(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }

    /** A double in {@code (0, 1]} from the top 53 bits: never 0, so its logarithm is finite. */
    public static double unitNonZero(long bits) {
        return ((bits >>> 11) + 1) * 0x1.0p-53;
    }
}
