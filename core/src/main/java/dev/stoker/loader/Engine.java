package dev.stoker.loader;

/**
 * How a loader makes its batches: in the caller's thread ({@link SerialEngine}) or, later, on
 * worker threads. An engine lives as long as its loader and starts one {@link BatchSource} per
 * pass; whatever it keeps between passes (persistent workers) it releases on {@link #close()}.
 */
interface Engine extends AutoCloseable {

    /**
     * Starts the pass of {@code epoch}. A map-style pass makes the batches of {@code plan} and
     * tells {@code log} of a batch passed over because every one of its samples was skipped (it
     * has nothing to deliver, so resume need not make it again); a streaming pass starts where
     * {@code streams} started and keeps it up to date ({@link BatchSource#handedOut}). The other
     * two are null. The previous pass has been closed.
     */
    BatchSource start(long epoch, BatchPlan plan, DeliveryLog log, StreamLog streams);

    /** Stops the engine; idempotent. */
    @Override
    void close();
}
