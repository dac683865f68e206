package dev.stoker.loader;

import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link LoaderStats}; written by every thread that loads batches. */
final class StatsCounters {
    private final LongAdder batches = new LongAdder();
    private final LongAdder samples = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder fetchNanos = new LongAdder();
    private final LongAdder collateNanos = new LongAdder();

    void loaded(int samplesInBatch, long fetch, long collate) {
        batches.increment();
        samples.add(samplesInBatch);
        fetchNanos.add(fetch);
        collateNanos.add(collate);
    }

    void failed() {
        failed.increment();
    }

    LoaderStats snapshot() {
        return new LoaderStats(batches.sum(), samples.sum(), failed.sum(), fetchNanos.sum(), collateNanos.sum());
    }
}
