package dev.stoker.loader.engine;

/**
 * How a loader makes its batches: in the caller's thread ({@link SerialEngine}) or on worker
 * threads ({@link WorkerEngine}). An engine lives as long as its loader and starts one
 * {@link BatchSource} per pass, of the kind its {@link Source} makes; whatever it keeps between
 * passes (persistent workers) it releases on {@link #close()}.
 */
public interface Engine extends AutoCloseable {

    /**
     * Starts the pass of {@code epoch}, from where the source stands (the start of the epoch, or
     * a restored state). The previous pass has been closed.
     */
    BatchSource start(long epoch);

    /** Stops the engine; idempotent. */
    @Override
    void close();
}
