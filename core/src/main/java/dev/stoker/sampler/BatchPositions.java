package dev.stoker.sampler;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.LongFunction;

/**
 * Walks an epoch's batch positions {@code 0..count-1} and maps each to its sample indices: the
 * batch samplers' counterpart of {@link IndexIterator}. A batch that is a function of its
 * position is what lets an epoch resume at any batch without replaying the ones before.
 */
final class BatchPositions implements Iterator<long[]> {
    private final long count;
    private final LongFunction<long[]> batchAt;
    private long position;

    BatchPositions(long count, LongFunction<long[]> batchAt) {
        this.count = count;
        this.batchAt = batchAt;
    }

    @Override
    public boolean hasNext() {
        return position < count;
    }

    @Override
    public long[] next() {
        if (position >= count) {
            throw new NoSuchElementException("all " + count + " batches of this epoch were taken");
        }
        return batchAt.apply(position++);
    }
}
