package dev.stoker.loader;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link LoaderStats}; written by every thread that loads batches. */
final class StatsCounters {
    private final LongAdder batches = new LongAdder();
    private final LongAdder samples = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder fetchNanos = new LongAdder();
    private final LongAdder collateNanos = new LongAdder();
    private final AtomicLong skipped = new AtomicLong();
    private final ArrayDeque<SkippedSample> lastSkipped = new ArrayDeque<>(); // guarded by itself

    void loaded(int samplesInBatch, long fetch, long collate) {
        batches.increment();
        samples.add(samplesInBatch);
        fetchNanos.add(fetch);
        collateNanos.add(collate);
    }

    void failed() {
        failed.increment();
    }

    /** Counts a skipped sample and keeps it among the last few; returns the count so far, this one included. */
    long skipped(SkippedSample sample) {
        synchronized (lastSkipped) {
            if (lastSkipped.size() == LoaderStats.LAST_SKIPPED_KEPT) {
                lastSkipped.removeFirst();
            }
            lastSkipped.addLast(sample);
        }
        return skipped.incrementAndGet();
    }

    LoaderStats snapshot() {
        List<SkippedSample> last;
        synchronized (lastSkipped) {
            last = List.copyOf(lastSkipped);
        }
        return new LoaderStats(batches.sum(), samples.sum(), failed.sum(), fetchNanos.sum(), collateNanos.sum(),
                skipped.get(), last);
    }
}
