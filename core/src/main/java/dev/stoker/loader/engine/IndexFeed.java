package dev.stoker.loader.engine;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The index batches of one map-style pass, handed to the workers by position: worker {@code w}
 * asks for batches {@code w, w + n, w + 2n, ...}. The batch sampler is read once, in order, under
 * a lock; batches read ahead for another worker wait here (index arrays only, no data) until that
 * worker asks. So batch {@code k} holds the same samples whatever the number of workers.
 */
final class IndexFeed {
    private final Iterator<long[]> batches;
    private final Map<Long, long[]> waiting = new HashMap<>();
    private long read; // batches taken from the sampler so far
    private boolean exhausted;

    IndexFeed(Iterator<long[]> batches) {
        this.batches = batches;
    }

    /** What {@link #hold} gives for a batch made and forgotten already: the consumer's thread made it. */
    static final long[] TAKEN = new long[0];

    /**
     * The indices of batch {@code k}, kept until {@link #forget}: for a tuned pass whose consumer
     * may make a batch itself, where the lane and the consumer both look and one of them makes it.
     * {@code null} when the pass has fewer batches, {@link #TAKEN} when {@code k} was forgotten.
     */
    synchronized long[] hold(long k) {
        long[] kept = waiting.get(k);
        if (kept != null) {
            return kept;
        }
        if (k < read) {
            return TAKEN;
        }
        while (!exhausted && read <= k) {
            if (!batches.hasNext()) {
                exhausted = true;
                break;
            }
            long[] next = batches.next();
            waiting.put(read, next);
            if (read++ == k) {
                return next;
            }
        }
        return null;
    }

    /** Batch {@code k} is being made: its indices are no longer kept ({@link #hold}). */
    synchronized void forget(long k) {
        waiting.remove(k);
    }

    /** The indices of batch {@code k}, or {@code null} when the pass has fewer batches. Each k once. */
    synchronized long[] get(long k) {
        long[] mine = waiting.remove(k);
        if (mine != null) {
            return mine;
        }
        while (!exhausted && read <= k) {
            if (!batches.hasNext()) {
                exhausted = true;
                break;
            }
            long[] next = batches.next();
            if (read == k) {
                read++;
                return next;
            }
            waiting.put(read++, next);
        }
        return null;
    }
}
