package dev.stoker.loader.engine;

import dev.stoker.loader.SkippedSample;
import java.lang.System.Logger.Level;

/**
 * Records the samples skipped under {@link SamplePolicy#SKIP}: counts them in the loader's
 * {@link StatsCounters} and logs one in {@link #LOG_EVERY} at {@code WARNING}, so that a dataset
 * with many bad samples says so without flooding the log. Safe to call from several threads.
 */
public final class SkippedSamples {
    // SamplePolicy's javadoc (public, so it cannot link here) names these two numbers: keep them in step.
    /** One skip in this many is logged: the 1st, the 101st, ... */
    public static final int LOG_EVERY = 100;
    /** Failures in a row from one stream's {@code next()} after which the stream counts as stuck. */
    public static final int STUCK_STREAM = 1000;

    /** The loader's logger, by name: the one SamplePolicy's documentation tells users to configure. */
    private static final System.Logger LOG = System.getLogger("dev.stoker.loader.DataLoader");

    private final String datasetName;
    private final StatsCounters stats;

    SkippedSamples(String datasetName, StatsCounters stats) {
        this.datasetName = datasetName;
        this.stats = stats;
    }

    /** Sample {@code index} of batch {@code batch} failed with {@code cause} and is left out. */
    void skip(long epoch, long batch, long index, Exception cause) {
        SkippedSample s = new SkippedSample(epoch, batch, index, describe(cause));
        long count = stats.skipped(s);
        if (count % LOG_EVERY == 1 || LOG_EVERY == 1) {
            LOG.log(Level.WARNING, () -> "dataset '" + datasetName + "': skipped " + s + " (" + count
                    + " skipped so far; one in " + LOG_EVERY + " is logged)", cause);
        }
    }

    static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
