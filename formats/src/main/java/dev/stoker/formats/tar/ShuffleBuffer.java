package dev.stoker.formats.tar;

import dev.stoker.random.Seeds;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A shuffle buffer over a stream, W5's rule: the first {@code capacity} items only fill the
 * buffer; each later item replaces a uniformly chosen slot, whose old item is emitted; when the
 * stream ends, what is left in the buffer is shuffled (Fisher-Yates from the last slot down) and
 * emitted. The output is a permutation of the input, and a pure function of the input and the
 * random stream: draw {@code k} (from 0, counting slot choices first, then the final shuffle) is
 * {@code Seeds.below(Seeds.splitMix(stream, k), bound)}. {@link TarShardDataset} takes
 * {@code stream = Seeds.mix(seed, epoch, globalWorkerId)}.
 *
 * <pre>{@code
 * Iterator<String> mixed = new ShuffleBuffer<>(names.iterator(), 1000, Seeds.mix(seed, epoch, worker));
 * }</pre>
 */
public final class ShuffleBuffer<T> implements Iterator<T> {
    private final Iterator<? extends T> in;
    private final Object[] slots;
    private final long stream;
    private long draws;
    private int filled;
    private boolean draining;
    private int drainIndex;

    /**
     * @param capacity how many items the buffer holds; at least 1
     * @param stream   the random stream's state
     */
    public ShuffleBuffer(Iterator<? extends T> in, int capacity, long stream) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a shuffle buffer holds at least 1 sample, not " + capacity);
        }
        this.in = in;
        this.slots = new Object[capacity];
        this.stream = stream;
    }

    @Override
    public boolean hasNext() {
        if (!draining) {
            while (filled < slots.length && in.hasNext()) {
                slots[filled++] = in.next();
            }
            if (filled == slots.length && in.hasNext()) {
                return true;
            }
            startDraining();
        }
        return drainIndex < filled;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        if (!draining) {
            int j = (int) draw(slots.length);
            T out = (T) slots[j];
            slots[j] = in.next();
            return out;
        }
        T out = (T) slots[drainIndex];
        slots[drainIndex++] = null; // let emitted samples (and their maps) go
        return out;
    }

    private void startDraining() {
        draining = true;
        for (int i = filled - 1; i > 0; i--) {
            int j = (int) draw(i + 1);
            Object t = slots[i];
            slots[i] = slots[j];
            slots[j] = t;
        }
    }

    private long draw(int bound) {
        return Seeds.below(Seeds.splitMix(stream, draws++), bound);
    }
}
