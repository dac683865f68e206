package dev.stoker.sampler;

import dev.stoker.random.Seeds;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * A random order that keeps only a few pages, shards or chunks of the data open at a time, like
 * FFCV's quasi-random order and Streaming's block shuffles: for data where reading a sample means
 * opening (or faulting in) the block that holds it.
 *
 * <p>The dataset is cut into blocks of {@code blockSize} consecutive indices (the last one may be
 * shorter). Each epoch the blocks are put in a random order ({@link FeistelPermutation} of
 * (seed, epoch)), taken {@code openBlocks} at a time, and the samples of each such window are
 * shuffled together (a Feistel permutation keyed by (seed, epoch, window)). So every index comes
 * once per epoch, any stretch of the order as long as a window touches at most
 * {@code 2 x openBlocks} blocks (the end of one window and the start of the next; up to
 * {@code 3 x openBlocks} across the window that holds the short last block, which is shorter), and the order is a pure function of (seed, epoch)
 * like every sampler's.
 *
 * <pre>{@code
 * // 4096 samples per memory-mapped chunk, at most 8 chunks in use at once
 * Sampler order = new BlockShuffleSampler(datasetSize, 4096, 8, 42);
 * }</pre>
 */
public final class BlockShuffleSampler implements Sampler {
    private static final long WINDOW_SALT = 0x57494E444F57L; // "WINDOW"

    private final long size;
    private final long blockSize;
    private final int openBlocks;
    private final long seed;
    private final long blocks;

    public BlockShuffleSampler(long size, long blockSize, int openBlocks, long seed) {
        if (size < 0 || blockSize < 1 || openBlocks < 1) {
            throw new IllegalArgumentException("a block shuffle needs a size of 0 or more, blocks of 1 or more and"
                    + " at least 1 open block, not size " + size + ", block " + blockSize + ", open " + openBlocks);
        }
        this.size = size;
        this.blockSize = blockSize;
        this.openBlocks = openBlocks;
        this.seed = seed;
        this.blocks = Math.ceilDiv(size, blockSize);
    }

    @Override
    public long size() {
        return size;
    }

    /** The block that holds {@code index}: the unit of locality. */
    public long blockOf(long index) {
        return index / blockSize;
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        FeistelPermutation blockOrder = blocks == 0 ? null : FeistelPermutation.of(blocks, seed, epoch);
        return new PrimitiveIterator.OfLong() {
            private long window = -1;
            private final long[] windowBlocks = new long[openBlocks];
            private long windowSize;
            private long q;
            private FeistelPermutation shuffle;
            private long delivered;

            @Override
            public boolean hasNext() {
                return delivered < size;
            }

            @Override
            public long nextLong() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (window < 0 || q == windowSize) {
                    openWindow(window + 1);
                }
                long p = shuffle.apply(q++);
                delivered++;
                // every block of the window is full but perhaps the last (the short block is put last)
                return windowBlocks[(int) (p / blockSize)] * blockSize + p % blockSize;
            }

            private void openWindow(long w) {
                window = w;
                q = 0;
                int count = (int) Math.min(openBlocks, blocks - w * openBlocks);
                windowSize = 0;
                int shortAt = -1;
                for (int j = 0; j < count; j++) {
                    long b = blockOrder.apply(w * openBlocks + j);
                    windowBlocks[j] = b;
                    windowSize += Math.min(blockSize, size - b * blockSize);
                    if ((b + 1) * blockSize > size) {
                        shortAt = j;
                    }
                }
                if (shortAt >= 0 && shortAt != count - 1) {
                    long t = windowBlocks[shortAt];
                    windowBlocks[shortAt] = windowBlocks[count - 1];
                    windowBlocks[count - 1] = t;
                }
                shuffle = new FeistelPermutation(windowSize, Seeds.mix(seed, epoch, WINDOW_SALT, w));
            }
        };
    }

    @Override
    public String toString() {
        return "BlockShuffleSampler(" + size + " samples, blocks of " + blockSize + ", " + openBlocks
                + " open, seed " + seed + ")";
    }
}
