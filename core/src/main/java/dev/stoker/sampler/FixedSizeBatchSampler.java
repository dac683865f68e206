package dev.stoker.sampler;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * Groups a sampler's indices into batches of a fixed size, in order, like PyTorch's
 * {@code BatchSampler}: the last batch is shorter when the count does not divide evenly, or is
 * dropped with {@code dropLast}. Made by {@link BatchSampler#of}.
 *
 * <pre>{@code
 * BatchSampler b = BatchSampler.of(new SequentialSampler(10), 3, true);
 * b.size();        // 3: [0, 1, 2], [3, 4, 5], [6, 7, 8]
 * }</pre>
 */
public final class FixedSizeBatchSampler implements BatchSampler {
    private final Sampler sampler;
    private final int batchSize;
    private final boolean dropLast;

    FixedSizeBatchSampler(Sampler sampler, int batchSize, boolean dropLast) {
        if (sampler == null) {
            throw new NullPointerException("sampler");
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
        }
        this.sampler = sampler;
        this.batchSize = batchSize;
        this.dropLast = dropLast;
    }

    /** {@code floor(n / batchSize)} with {@code dropLast}, else {@code ceil(n / batchSize)}, for n = sampler size. */
    @Override
    public long size() {
        long n = sampler.size();
        return dropLast ? n / batchSize : n / batchSize + (n % batchSize == 0 ? 0 : 1);
    }

    public Sampler sampler() {
        return sampler;
    }

    /** The sampler's rank ({@link Sampler#rank()}). */
    @Override
    public int rank() {
        return sampler.rank();
    }

    /** The sampler's world size ({@link Sampler#worldSize()}). */
    @Override
    public int worldSize() {
        return sampler.worldSize();
    }

    public int batchSize() {
        return batchSize;
    }

    public boolean dropLast() {
        return dropLast;
    }

    @Override
    public Iterator<long[]> iterator(long epoch) {
        PrimitiveIterator.OfLong indices = sampler.iterator(epoch);
        return new Iterator<>() {
            private long[] next;

            @Override
            public boolean hasNext() {
                if (next == null) {
                    next = fill();
                }
                return next != null;
            }

            @Override
            public long[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no batches left in epoch " + epoch);
                }
                long[] batch = next;
                next = null;
                return batch;
            }

            private long[] fill() {
                if (!indices.hasNext()) {
                    return null;
                }
                long[] batch = new long[batchSize];
                int count = 0;
                while (count < batchSize && indices.hasNext()) {
                    batch[count++] = indices.nextLong();
                }
                if (count == batchSize) {
                    return batch;
                }
                return count == 0 || dropLast ? null : Arrays.copyOf(batch, count);
            }
        };
    }

    @Override
    public String toString() {
        return "FixedSizeBatchSampler[" + sampler + ", batchSize=" + batchSize + ", dropLast=" + dropLast + "]";
    }
}
