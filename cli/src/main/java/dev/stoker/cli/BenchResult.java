package dev.stoker.cli;

import java.util.Arrays;
import java.util.List;

/**
 * The result of one configuration: its timed repetitions summed up as {@code WORKLOADS.md} asks
 * (samples per second from the median time, plus min and max).
 *
 * @param workload        {@code W1}
 * @param configuration   what ran
 * @param repetitions     the timed repetitions, in order (the warm-up is not among them)
 * @param bytesPerSample  output bytes per sample for MB/s, 0 where not defined
 * @param peakRssBytes    the process's peak resident memory over the repetitions, -1 if unknown
 */
public record BenchResult(String workload, Configuration configuration, List<Measurement> repetitions,
                          long bytesPerSample, long peakRssBytes) {

    public BenchResult {
        if (repetitions.isEmpty()) {
            throw new IllegalArgumentException("a result needs at least one repetition");
        }
        repetitions = List.copyOf(repetitions);
    }

    /** Samples per repetition (the same in every one: the first repetition's count). */
    public long samples() {
        return repetitions.getFirst().samples();
    }

    public long batches() {
        return repetitions.getFirst().batches();
    }

    /** The median repetition time (the mean of the middle two with an even count, as Python's {@code statistics.median}). */
    public double medianNanos() {
        return median(repetitions.stream().mapToLong(Measurement::nanos).toArray());
    }

    public long minNanos() {
        return repetitions.stream().mapToLong(Measurement::nanos).min().orElseThrow();
    }

    public long maxNanos() {
        return repetitions.stream().mapToLong(Measurement::nanos).max().orElseThrow();
    }

    /** Samples per second at the median time. */
    public double samplesPerSecond() {
        return perSecond(samples(), medianNanos());
    }

    /** Samples per second of the slowest repetition. */
    public double samplesPerSecondMin() {
        return perSecond(samples(), maxNanos());
    }

    /** Samples per second of the fastest repetition. */
    public double samplesPerSecondMax() {
        return perSecond(samples(), minNanos());
    }

    public double batchesPerSecond() {
        return perSecond(batches(), medianNanos());
    }

    /** Output megabytes (10^6 bytes) per second at the median time, or NaN where not defined. */
    public double megabytesPerSecond() {
        return bytesPerSample <= 0 ? Double.NaN : samplesPerSecond() * bytesPerSample / 1e6;
    }

    /** The median time to the first batch, in milliseconds. */
    public double firstBatchMillis() {
        return median(repetitions.stream().mapToLong(Measurement::firstBatchNanos).toArray()) / 1e6;
    }

    /** The most bytes the loader's pool held at once, over all repetitions. */
    /** The loader's bound on batch memory ahead of the consumer, or -1 when it stated none. */
    public long inFlightBytes() {
        return repetitions.stream().mapToLong(Measurement::inFlightBytes).max().orElseThrow();
    }

    public long poolPeakBytes() {
        return repetitions.stream().mapToLong(Measurement::poolPeakBytes).max().orElseThrow();
    }

    /** The repetition times in seconds, as the PyTorch side's {@code times_s}. */
    public double[] timesSeconds() {
        return repetitions.stream().mapToDouble(m -> m.nanos() / 1e9).toArray();
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }

    private static double perSecond(long count, double nanos) {
        return nanos <= 0 ? Double.NaN : count * 1e9 / nanos;
    }
}
