package dev.stoker.sampler;

import java.util.Arrays;
import java.util.Objects;

/**
 * The order of Hugging Face's {@code group_by_length} ({@code LengthGroupedSampler},
 * {@code get_length_grouped_indices} in transformers' {@code trainer_pt_utils}) as a pure function
 * of the lengths, the batch size, the seed and the epoch.
 *
 * <p>The steps are HF's: a seeded permutation of {@code 0..n-1} (here
 * {@link FeistelPermutation#of(long, long, long)} of (seed, epoch), since Torch's {@code randperm}
 * cannot be reproduced outside Torch) is cut into mega-batches of {@code megaBatchMult * batchSize};
 * each mega-batch is sorted by length, longest first (stable: equal lengths keep their shuffled
 * order, as Python's {@code sorted(..., reverse=True)} does); then the first element of the
 * mega-batch holding the longest sequence trades places with the very first element, so the longest
 * sequence comes first and an out-of-memory error shows at the first step, not hours later.
 *
 * <pre>{@code
 * long[] order = LengthGroupedOrder.of(lengths, 8, LengthGroupedOrder.defaultMegaBatchMult(lengths.length, 8), 42, 0);
 * // order[0..8) are the first batch: similar lengths, the longest of the epoch among them
 * }</pre>
 */
public final class LengthGroupedOrder {
    private LengthGroupedOrder() {
    }

    /**
     * HF's default multiplier: {@code min(n / (4 * batchSize), 50)}, at least 1.
     */
    public static int defaultMegaBatchMult(int n, int batchSize) {
        return Math.max(1, Math.min(n / (4 * batchSize), 50));
    }

    /**
     * The length-grouped order of epoch {@code epoch}: every index of {@code lengths} once.
     *
     * @throws IllegalArgumentException for a batch size or multiplier below 1, or a negative length
     */
    public static long[] of(int[] lengths, int batchSize, int megaBatchMult, long seed, long epoch) {
        int[] order = indices(lengths, batchSize, megaBatchMult, seed, epoch);
        long[] out = new long[order.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = order[i];
        }
        return out;
    }

    /** {@link #of} as ints, for the samplers that keep it. */
    static int[] indices(int[] lengths, int batchSize, int megaBatchMult, long seed, long epoch) {
        Objects.requireNonNull(lengths, "lengths");
        if (batchSize < 1 || megaBatchMult < 1) {
            throw new IllegalArgumentException("a batch size and a mega-batch multiplier are 1 or more, not "
                    + batchSize + " and " + megaBatchMult);
        }
        int n = lengths.length;
        int[] order = new int[n];
        if (n == 0) {
            return order;
        }
        FeistelPermutation permutation = FeistelPermutation.of(n, seed, epoch);
        long mega = (long) megaBatchMult * batchSize;
        long[] keys = new long[(int) Math.min(mega, n)];
        int longestMega = 0;
        int longest = -1;
        for (int start = 0; start < n; start += (int) Math.min(mega, n - start)) {
            int size = (int) Math.min(mega, n - start);
            for (int j = 0; j < size; j++) {
                int index = (int) permutation.apply(start + j);
                int length = lengths[index];
                if (length < 0) {
                    throw new IllegalArgumentException("length " + length + " of sample " + index + " is negative");
                }
                // longest first, then by place in the shuffle: a stable descending sort
                keys[j] = (long) (Integer.MAX_VALUE - length) << 32 | j;
            }
            Arrays.sort(keys, 0, size);
            for (int j = 0; j < size; j++) {
                order[start + j] = (int) permutation.apply(start + (int) (keys[j] & 0xFFFF_FFFFL));
            }
            if (lengths[order[start]] > longest) { // HF's argmax: the first mega-batch with the maximum
                longest = lengths[order[start]];
                longestMega = start;
            }
        }
        int first = order[0];
        order[0] = order[longestMega];
        order[longestMega] = first;
        return order;
    }
}
