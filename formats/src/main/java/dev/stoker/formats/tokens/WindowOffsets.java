package dev.stoker.formats.tokens;

import dev.stoker.random.Seeds;

/**
 * Start offsets of training windows in a token stream, as pure functions of their arguments.
 * A window of {@code seqLen} needs {@code seqLen + 1} tokens (input plus the shifted target), so
 * in a stream of {@code n} tokens it may start anywhere in {@code [0, n - seqLen - 1]}.
 *
 * <pre>{@code
 * long[] tiled = WindowOffsets.nonOverlapping(1_000_000, 1024);   // 0, 1024, 2048, ... (976 windows)
 * long[] random = WindowOffsets.random(1_000_000, 1024, 12_800, 0); // seeded, uniform
 * }</pre>
 */
public final class WindowOffsets {
    private static final long STREAM = 0x746F_6B65_6E73_2121L; // "tokens!!"

    private WindowOffsets() {}

    /**
     * Windows that tile the stream without overlapping: {@code k * seqLen} for every {@code k}
     * whose window (with its shifted target) fits. The target of one window overlaps the first
     * input token of the next, as in nanoGPT and Megatron-LM.
     */
    public static long[] nonOverlapping(long tokens, int seqLen) {
        checkSeqLen(seqLen);
        long count = tokens <= seqLen ? 0 : (tokens - 1) / seqLen;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(count + " windows do not fit in one offsets array; use a longer seqLen"
                    + " or split the file");
        }
        long[] out = new long[(int) count];
        for (int k = 0; k < out.length; k++) {
            out[k] = (long) k * seqLen;
        }
        return out;
    }

    /**
     * {@code count} offsets uniform in {@code [0, tokens - seqLen - 1]}, a pure function of
     * {@code seed} (SplitMix64 with Lemire's unbiased bound).
     *
     * @throws IllegalArgumentException when the stream is shorter than one window
     */
    public static long[] random(long tokens, int seqLen, int count, long seed) {
        checkSeqLen(seqLen);
        if (count < 0) {
            throw new IllegalArgumentException("count must be 0 or more, not " + count);
        }
        long starts = tokens - seqLen; // number of valid starts: [0, tokens - seqLen - 1]
        if (starts < 1) {
            throw new IllegalArgumentException("a stream of " + tokens + " tokens is shorter than one window of "
                    + seqLen + " + 1 tokens");
        }
        long stream = Seeds.mix(seed, 0, STREAM);
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = Seeds.below(Seeds.splitMix(stream, i), starts);
        }
        return out;
    }

    static void checkSeqLen(int seqLen) {
        if (seqLen < 1) {
            throw new IllegalArgumentException("seqLen must be 1 or more, not " + seqLen);
        }
    }
}
