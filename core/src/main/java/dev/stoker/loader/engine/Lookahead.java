package dev.stoker.loader.engine;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * A pass's index batches read {@code distance} batches ahead of the one handed out, each batch
 * told to {@code hint} (the dataset's {@code willNeed}) when it is read: so a dataset hears of a
 * batch that many batches before a worker asks for its samples. The batches and their order are
 * the sampler's, unchanged.
 */
final class Lookahead implements Iterator<long[]> {
    private final Iterator<long[]> batches;
    private final int distance;
    private final Consumer<long[]> hint;
    private final ArrayDeque<long[]> ahead = new ArrayDeque<>();

    private Lookahead(Iterator<long[]> batches, int distance, Consumer<long[]> hint) {
        this.batches = batches;
        this.distance = distance;
        this.hint = hint;
        fill(distance + 1); // the first batch and the distance after it
    }

    /** {@code batches} with each one told to {@code hint} {@code distance} batches early; as they are for 0. */
    static Iterator<long[]> of(Iterator<long[]> batches, int distance, Consumer<long[]> hint) {
        return distance <= 0 ? batches : new Lookahead(batches, distance, hint);
    }

    private void fill(int count) {
        while (ahead.size() < count && batches.hasNext()) {
            long[] next = batches.next();
            hint.accept(next);
            ahead.addLast(next);
        }
    }

    @Override
    public boolean hasNext() {
        return !ahead.isEmpty();
    }

    @Override
    public long[] next() {
        if (ahead.isEmpty()) {
            throw new NoSuchElementException("the pass has no more batches");
        }
        long[] next = ahead.removeFirst();
        fill(distance); // batch k handed out: k + 1 .. k + distance read and hinted
        return next;
    }
}
