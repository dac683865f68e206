package dev.stoker.sampler;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.function.LongUnaryOperator;

/**
 * Walks positions {@code 0..size-1} and maps each to an index. Every sampler here is such a map,
 * which is what lets an epoch be resumed at any position without replaying the ones before.
 */
final class IndexIterator implements PrimitiveIterator.OfLong {
    private final long size;
    private final LongUnaryOperator indexAt;
    private long position;

    IndexIterator(long size, LongUnaryOperator indexAt) {
        this.size = size;
        this.indexAt = indexAt;
    }

    @Override
    public boolean hasNext() {
        return position < size;
    }

    @Override
    public long nextLong() {
        if (position >= size) {
            throw new NoSuchElementException("all " + size + " indices of this epoch were taken");
        }
        return indexAt.applyAsLong(position++);
    }
}
