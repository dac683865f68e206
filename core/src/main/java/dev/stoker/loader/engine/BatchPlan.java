package dev.stoker.loader.engine;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The batches of one map-style pass that are still to be made: all of them for a fresh epoch, or,
 * after {@link DataLoader#restore}, those a saved state had not delivered. Engines number the
 * batches they make by position (0, 1, 2, ...) and ask {@link #original} for the batch's index in
 * the epoch, so that a resumed batch carries the index, indices and data it would have had.
 * Skipping reads only the sampler's index arrays, never a sample.
 */
final class BatchPlan {
    static final BatchPlan WHOLE_EPOCH = new BatchPlan(0, new long[0]);

    private final long first;
    private final long[] skipped; // ascending, all > first

    BatchPlan(long first, long[] skipped) {
        this.first = first;
        this.skipped = skipped;
    }

    /** A log of deliveries that starts where this plan does. */
    DeliveryLog newLog() {
        return new DeliveryLog(first, skipped);
    }

    /** The index in the epoch of the batch at {@code position} of this plan. */
    long original(long position) {
        long k = first + position;
        for (long s : skipped) {
            if (s <= k) {
                k++;
            } else {
                break;
            }
        }
        return k;
    }

    /** The sampler's batches without those this plan skips. */
    Iterator<long[]> remaining(Iterator<long[]> batches) {
        if (first == 0 && skipped.length == 0) {
            return batches;
        }
        return new Iterator<>() {
            private long k; // index in the epoch of the sampler's next batch
            private int nextSkipped;

            @Override
            public boolean hasNext() {
                while (batches.hasNext() && isSkipped(k)) {
                    batches.next();
                    k++;
                }
                return batches.hasNext();
            }

            @Override
            public long[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                k++;
                return batches.next();
            }

            private boolean isSkipped(long index) {
                if (index < first) {
                    return true;
                }
                while (nextSkipped < skipped.length && skipped[nextSkipped] < index) {
                    nextSkipped++;
                }
                return nextSkipped < skipped.length && skipped[nextSkipped] == index;
            }
        };
    }
}
