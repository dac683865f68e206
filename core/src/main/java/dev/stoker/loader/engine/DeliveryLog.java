package dev.stoker.loader.engine;

import dev.stoker.loader.LoaderException;
import java.util.TreeSet;

/**
 * Which batches of one epoch the consumer has received: a count of the batches delivered without
 * a gap from the start, and the few delivered beyond the first gap (out-of-order delivery keeps
 * that set at most about {@code prefetchFactor x numWorkers}). A failed batch counts as delivered:
 * its error reached the consumer in its place.
 */
final class DeliveryLog {
    private long prefix;
    private final TreeSet<Long> ahead = new TreeSet<>();

    /** A log that starts where a restored state stood: before {@code first}, and {@code skipped}, delivered. */
    DeliveryLog(long first, long[] skipped) {
        prefix = first;
        for (long s : skipped) {
            ahead.add(s);
        }
    }

    synchronized void delivered(long batch) {
        if (batch == prefix) {
            prefix++;
            while (ahead.remove(prefix)) {
                prefix++;
            }
        } else if (batch > prefix) {
            ahead.add(batch);
        }
    }

    /**
     * The consumer received {@code failure} in place of a batch: when it names a batch of this
     * pass's {@code epoch}, that batch counts as delivered, so that resume goes on after it.
     */
    void failed(long epoch, RuntimeException failure) {
        if (failure instanceof LoaderException le && le.epoch() == epoch && le.batchIndex() >= 0) {
            delivered(le.batchIndex());
        }
    }

    synchronized long prefix() {
        return prefix;
    }

    synchronized long[] ahead() {
        return ahead.stream().mapToLong(Long::longValue).toArray();
    }
}
