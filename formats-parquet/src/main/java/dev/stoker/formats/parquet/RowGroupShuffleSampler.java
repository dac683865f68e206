package dev.stoker.formats.parquet;

import dev.stoker.random.Seeds;
import dev.stoker.sampler.FeistelPermutation;
import dev.stoker.sampler.Sampler;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * {@link dev.stoker.sampler.BlockShuffleSampler}'s order for blocks of different sizes: Parquet's
 * row groups (the last of each file is usually short). Each epoch the blocks come in a random order
 * ({@link FeistelPermutation} of (seed, epoch)), {@code openBlocks} at a time, and the rows of each
 * such window are shuffled together; so every index comes once per epoch, and any stretch of the
 * order as long as a window touches at most {@code 2 x openBlocks} blocks.
 *
 * <pre>{@code
 * Sampler order = new RowGroupShuffleSampler(dataset.rowGroupStarts(), 4, 42);   // or dataset.shuffleSampler(4, 42)
 * }</pre>
 */
public final class RowGroupShuffleSampler implements Sampler {
    private static final long WINDOW_SALT = 0x5247524F5550L; // "RGROUP"

    private final long[] starts;
    private final int openBlocks;
    private final long seed;

    /**
     * @param starts     the first index of each block, then the size: ascending, from 0
     * @param openBlocks blocks whose rows are shuffled together
     * @param seed       the order's seed
     */
    public RowGroupShuffleSampler(long[] starts, int openBlocks, long seed) {
        if (starts.length < 1 || starts[0] != 0 || openBlocks < 1) {
            throw new IllegalArgumentException("block starts must begin at 0 and at least 1 block must be open, not "
                    + Arrays.toString(Arrays.copyOf(starts, Math.min(starts.length, 4))) + ", open " + openBlocks);
        }
        for (int i = 1; i < starts.length; i++) {
            if (starts[i] < starts[i - 1]) {
                throw new IllegalArgumentException("block starts must ascend: " + starts[i - 1] + " then " + starts[i]);
            }
        }
        this.starts = starts.clone();
        this.openBlocks = openBlocks;
        this.seed = seed;
    }

    @Override
    public long size() {
        return starts[starts.length - 1];
    }

    /** The block that holds {@code index}. */
    public int blockOf(long index) {
        int i = Arrays.binarySearch(starts, index);
        for (i = i >= 0 ? i : -i - 2; i + 1 < starts.length && starts[i + 1] == index; i++) {
            // an empty block starts where the next does: skip to the one that holds the index
        }
        return i;
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        int blocks = starts.length - 1;
        FeistelPermutation order = blocks == 0 ? null : FeistelPermutation.of(blocks, seed, epoch);
        long total = size();
        return new PrimitiveIterator.OfLong() {
            private long window = -1;
            private final long[] windowStarts = new long[openBlocks + 1];
            private final int[] windowBlocks = new int[openBlocks];
            private int count;
            private long q;
            private FeistelPermutation shuffle;
            private long delivered;

            @Override
            public boolean hasNext() {
                return delivered < total;
            }

            @Override
            public long nextLong() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                while (shuffle == null || q == shuffle.size()) {
                    open(window + 1);
                }
                long p = shuffle.apply(q++);
                delivered++;
                int j = Arrays.binarySearch(windowStarts, 0, count + 1, p);
                j = j >= 0 ? j : -j - 2;
                while (windowStarts[j + 1] == windowStarts[j]) {
                    j++;
                }
                return starts[windowBlocks[j]] + (p - windowStarts[j]);
            }

            private void open(long w) {
                window = w;
                q = 0;
                count = (int) Math.min(openBlocks, blocks - w * openBlocks);
                for (int j = 0; j < count; j++) {
                    int b = (int) order.apply(w * openBlocks + j);
                    windowBlocks[j] = b;
                    windowStarts[j + 1] = windowStarts[j] + (starts[b + 1] - starts[b]);
                }
                shuffle = new FeistelPermutation(windowStarts[count], Seeds.mix(seed, epoch, WINDOW_SALT, w));
            }
        };
    }

    @Override
    public String toString() {
        return "RowGroupShuffleSampler(" + size() + " samples, " + (starts.length - 1) + " blocks, " + openBlocks
                + " open, seed " + seed + ")";
    }
}
