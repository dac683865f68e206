package dev.stoker.cuda;

/**
 * A CUDA stream: work on it runs in order, and apart from other streams' work.
 *
 * <pre>{@code
 * try (CudaStream copies = new CudaStream(cuda)) {
 *     cuda.memcpyAsync(dev, host.address(), bytes, CudaRuntime.MEMCPY_HOST_TO_DEVICE, copies.handle());
 *     copies.synchronize();
 * }
 * }</pre>
 */
public final class CudaStream implements AutoCloseable {
    private final CudaRuntime cuda;
    private final long handle;
    private boolean closed;

    public CudaStream(CudaRuntime cuda) {
        this.cuda = cuda;
        this.handle = cuda.streamCreate();
    }

    /** The {@code cudaStream_t}, to pass to other libraries. */
    public long handle() {
        return handle;
    }

    /** Later work on this stream waits for {@code event}; the host does not wait. */
    public void waitFor(CudaEvent event) {
        cuda.streamWaitEvent(handle, event.handle());
    }

    /** Blocks the calling thread until everything queued on this stream has finished. */
    public void synchronize() {
        cuda.streamSynchronize(handle);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cuda.streamDestroy(handle);
        }
    }
}
