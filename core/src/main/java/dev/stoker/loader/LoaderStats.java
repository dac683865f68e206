package dev.stoker.loader;

/**
 * What a {@link DataLoader} has done since it was built, at one moment.
 *
 * @param batches       batches loaded (made, whether or not the consumer has taken them yet)
 * @param samples       samples in those batches
 * @param failedBatches batches that failed with a {@link LoaderException}
 * @param fetchNanos    time spent fetching samples from the dataset, summed over threads
 * @param collateNanos  time spent in collate, summed over threads
 */
public record LoaderStats(long batches, long samples, long failedBatches, long fetchNanos, long collateNanos) {

    /** Mean fetch time per loaded batch, in milliseconds; 0 before the first. */
    public double fetchMillisPerBatch() {
        return batches == 0 ? 0 : fetchNanos / 1e6 / batches;
    }

    /** Mean collate time per loaded batch, in milliseconds; 0 before the first. */
    public double collateMillisPerBatch() {
        return batches == 0 ? 0 : collateNanos / 1e6 / batches;
    }
}
