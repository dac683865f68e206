package dev.stoker.cuda;

/**
 * A CUDA event: a marker in a stream that other streams and the host can wait for.
 *
 * <pre>{@code
 * try (CudaEvent copied = new CudaEvent(cuda, false)) {
 *     copied.record(copyStream);
 *     computeStream.waitFor(copied);     // the GPU waits, the host goes on
 * }
 * }</pre>
 */
public final class CudaEvent implements AutoCloseable {
    private final CudaRuntime cuda;
    private final long handle;
    private boolean closed;

    /** @param timing whether elapsed times can be measured (costs a little on every record) */
    public CudaEvent(CudaRuntime cuda, boolean timing) {
        this.cuda = cuda;
        this.handle = cuda.eventCreate(timing);
    }

    public long handle() {
        return handle;
    }

    /** Marks the point in {@code stream} after all work queued so far. */
    public void record(CudaStream stream) {
        cuda.eventRecord(handle, stream.handle());
    }

    /** Marks the point in the stream with the raw handle {@code stream} (0 is the default stream). */
    public void record(long stream) {
        cuda.eventRecord(handle, stream);
    }

    /** True once the work before the last record has finished. Never blocks. */
    public boolean isDone() {
        return cuda.eventQuery(handle);
    }

    /** Blocks until the work before the last record has finished. */
    public void synchronize() {
        cuda.eventSynchronize(handle);
    }

    /** Milliseconds from {@code start} to this event; both must be timing events. */
    public float millisSince(CudaEvent start) {
        return cuda.eventElapsedMillis(start.handle, handle);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cuda.eventDestroy(handle);
        }
    }
}
