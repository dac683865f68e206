package dev.stoker.cli;

/**
 * What one timed repetition gave.
 *
 * @param nanos           from the first {@code iterator()} to the end of the last batch of the last epoch
 * @param firstBatchNanos from the first {@code iterator()} to the first batch in the consumer's hands
 * @param samples         samples the consumer received
 * @param batches         batches the consumer received
 * @param poolPeakBytes   the most bytes the loader's pool held at once
 * @param inFlightBytes   the loader's bound on batch memory ahead of the consumer
 *                        ({@code DataLoader.inFlightBound()}), or -1 when unknown
 */
public record Measurement(long nanos, long firstBatchNanos, long samples, long batches, long poolPeakBytes,
                          long inFlightBytes) {

    /** A measurement without a stated in-flight bound. */
    public Measurement(long nanos, long firstBatchNanos, long samples, long batches, long poolPeakBytes) {
        this(nanos, firstBatchNanos, samples, batches, poolPeakBytes, -1);
    }
}
