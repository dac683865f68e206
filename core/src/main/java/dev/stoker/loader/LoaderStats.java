package dev.stoker.loader;

import java.util.List;

/**
 * What a {@link DataLoader} has done since it was built, at one moment.
 *
 * @param batches        batches loaded (made, whether or not the consumer has taken them yet)
 * @param samples        samples in those batches
 * @param failedBatches  batches that failed with a {@link LoaderException}
 * @param fetchNanos     time spent fetching samples from the dataset, summed over threads
 * @param collateNanos   time spent in collate, summed over threads
 * @param skippedSamples samples left out under {@link SamplePolicy#SKIP}
 * @param lastSkipped    the last few of those, oldest first (at most {@link #LAST_SKIPPED_KEPT})
 * @param workers        workers making batches at once now (the autotuner's count; 0 in the caller's thread)
 * @param prefetch       batches per worker made ahead now
 * @param tuningChanges  changes the autotuner made so far, its start included ({@link DataLoader#tuningLog()});
 *                       0 for fixed settings
 * @param ioConcurrency  samples the I/O mode fetches at once now (the autotuner's count where it
 *                       sets it); 0 when the I/O mode is off
 */
public record LoaderStats(long batches, long samples, long failedBatches, long fetchNanos, long collateNanos,
                          long skippedSamples, List<SkippedSample> lastSkipped, int workers, int prefetch,
                          int tuningChanges, int ioConcurrency) {
    /** How many of the last skipped samples a loader keeps. */
    public static final int LAST_SKIPPED_KEPT = 16;

    public LoaderStats {
        lastSkipped = List.copyOf(lastSkipped);
    }

    /** Stats without the I/O mode. */
    public LoaderStats(long batches, long samples, long failedBatches, long fetchNanos, long collateNanos,
                       long skippedSamples, List<SkippedSample> lastSkipped, int workers, int prefetch,
                       int tuningChanges) {
        this(batches, samples, failedBatches, fetchNanos, collateNanos, skippedSamples, lastSkipped, workers, prefetch,
                tuningChanges, 0);
    }

    /** Stats without the worker settings (fixed at 0). */
    public LoaderStats(long batches, long samples, long failedBatches, long fetchNanos, long collateNanos,
                       long skippedSamples, List<SkippedSample> lastSkipped) {
        this(batches, samples, failedBatches, fetchNanos, collateNanos, skippedSamples, lastSkipped, 0, 0, 0, 0);
    }

    /** Stats of a loader that skipped nothing. */
    public LoaderStats(long batches, long samples, long failedBatches, long fetchNanos, long collateNanos) {
        this(batches, samples, failedBatches, fetchNanos, collateNanos, 0, List.of(), 0, 0, 0, 0);
    }

    /** Mean fetch time per loaded batch, in milliseconds; 0 before the first. */
    public double fetchMillisPerBatch() {
        return batches == 0 ? 0 : fetchNanos / 1e6 / batches;
    }

    /** Mean collate time per loaded batch, in milliseconds; 0 before the first. */
    public double collateMillisPerBatch() {
        return batches == 0 ? 0 : collateNanos / 1e6 / batches;
    }
}
