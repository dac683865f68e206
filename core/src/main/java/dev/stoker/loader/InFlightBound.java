package dev.stoker.loader;

import java.util.Locale;

/**
 * The most batch memory a loader holds ahead of its consumer: {@code prefetchFactor} batches per
 * worker, each of {@code batchBytes} (the batches the consumer holds come on top). Known before
 * the first batch when the dataset fills a declared layout; on the general path the batch size in
 * bytes is what the largest batch so far took, and unknown before the first.
 *
 * <pre>{@code
 * loader.inFlightBound();   // "2 prefetch x 4 workers x 19.3 MB = 154.1 MB"
 * }</pre>
 *
 * @param batches    batches in flight at most: prefetchFactor x workers, or 1 in the caller's thread
 * @param workers    worker threads (0: the caller's thread)
 * @param batchBytes bytes of one full batch, or -1 while unknown
 * @param measured   whether batchBytes was measured on batches made so far rather than declared
 */
public record InFlightBound(int batches, int workers, long batchBytes, boolean measured) {

    /** The bound in bytes, or -1 while the batch size in bytes is unknown. */
    public long bytes() {
        return batchBytes < 0 ? -1 : Math.multiplyExact(batches, batchBytes);
    }

    @Override
    public String toString() {
        String count = workers == 0
                ? "1 batch in the caller's thread"
                : (batches / workers) + " prefetch x " + workers + (workers == 1 ? " worker" : " workers");
        if (batchBytes < 0) {
            return count + " (bytes per batch known after the first batch)";
        }
        return count + " x " + megabytes(batchBytes) + " = " + megabytes(bytes()) + (measured ? " (measured)" : "");
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
