package dev.stoker.metrics;

/**
 * Hears of each batch once, as a worker (or the consumer's thread, without workers) finishes
 * making it: for per-batch figures such as a histogram of batch assembly time or of batch bytes,
 * without pairing spans or listening per sample. Registered with {@link StageClock#listenBatches};
 * runs on the thread that made the batch, so it must be quick and must not throw.
 *
 * <pre>{@code
 * loader.stageClock().listenBatches((epoch, batch, rows, bytes, start, end) -> assembly.record(end - start));
 * }</pre>
 */
@FunctionalInterface
public interface BatchListener {
    /**
     * One batch made.
     *
     * @param epoch      its epoch
     * @param batch      its number in the epoch (for a stream, the worker's turn as the loader numbers it)
     * @param rows       the samples in it
     * @param bytes      the bytes of its pooled buffers
     * @param startNanos when the fetch of its samples began ({@link System#nanoTime()})
     * @param endNanos   when it was ready: fetched and collated (or filled)
     */
    void batchMade(long epoch, long batch, int rows, long bytes, long startNanos, long endNanos);
}
