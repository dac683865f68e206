package dev.stoker.loader.engine;

import dev.stoker.loader.LoaderStats;
import dev.stoker.loader.SkippedSample;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.StageTimes;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link LoaderStats}; written by every thread that loads batches. The fetch
 * and collate times are not kept here: the loader's {@link StageClock} has them.
 */
public final class StatsCounters {
    private final LongAdder batches = new LongAdder();
    private final LongAdder samples = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicLong skipped = new AtomicLong();
    private final ArrayDeque<SkippedSample> lastSkipped = new ArrayDeque<>(); // guarded by itself

    void loaded(int samplesInBatch) {
        batches.increment();
        samples.add(samplesInBatch);
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

    /**
     * The counters now, with the fetch and collate times of {@code times}, the loader's clock's,
     * and the worker settings in force.
     */
    public LoaderStats snapshot(StageTimes times, int workers, int prefetch, int ioConcurrency, int tuningChanges) {
        List<SkippedSample> last;
        synchronized (lastSkipped) {
            last = List.copyOf(lastSkipped);
        }
        return new LoaderStats(batches.sum(), samples.sum(), failed.sum(), times.nanos(Stage.FETCH),
                times.nanos(Stage.COLLATE), skipped.get(), last, workers, prefetch, tuningChanges, ioConcurrency);
    }
}
