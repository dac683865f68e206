package dev.stoker.micrometer;

import dev.stoker.loader.DataLoader;
import dev.stoker.metrics.StageTimes;

/**
 * The stage totals of one loader as its meters read them: one {@link DataLoader#stageTimes()}
 * serves every stage meter of a scrape.
 *
 * <p>Why not read per meter: a scrape reads eighteen stage meters one after another, and each
 * would sum the clock's adders again and see a slightly later total than the meter before it. A
 * reading younger than {@link #MAX_AGE_NANOS} is reused instead; scrapes come seconds apart, so
 * each sees fresh totals, and all the stage meters of one scrape agree with each other.
 *
 * <p>Holds no reference to the loader (the meters hold it weakly, as Micrometer does), so binding
 * metrics never keeps a loader alive.
 */
final class StageReadings {
    /** How long a reading serves: far below any scrape interval, far above the time one scrape takes. */
    static final long MAX_AGE_NANOS = 100_000_000L;

    private StageTimes times;
    private long readAt;

    /**
     * The loader's stage totals, read now or at most {@link #MAX_AGE_NANOS} ago. Synchronized so
     * that readings follow each other: a later one never holds smaller totals than an earlier one,
     * as a counter must not go down.
     */
    synchronized StageTimes of(DataLoader<?> loader) {
        long now = System.nanoTime();
        if (times == null || now - readAt > MAX_AGE_NANOS) {
            times = loader.stageTimes();
            readAt = now;
        }
        return times;
    }
}
