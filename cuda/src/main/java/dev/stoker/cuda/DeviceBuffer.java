package dev.stoker.cuda;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Device memory from {@code cudaMalloc}, freed on close.
 *
 * <pre>{@code
 * try (DeviceBuffer buf = DeviceBuffer.allocate(cuda, 1 << 20)) {
 *     cuda.memcpy(buf.pointer(), host.address(), 1 << 20, CudaRuntime.MEMCPY_HOST_TO_DEVICE);
 * }
 * }</pre>
 */
public final class DeviceBuffer implements AutoCloseable {
    private static final AtomicLong LIVE_BYTES = new AtomicLong();
    private final CudaRuntime cuda;
    private final long pointer;
    private final long bytes;
    private boolean closed;

    private DeviceBuffer(CudaRuntime cuda, long pointer, long bytes) {
        this.cuda = cuda;
        this.pointer = pointer;
        this.bytes = bytes;
    }

    public static DeviceBuffer allocate(CudaRuntime cuda, long bytes) {
        long p = cuda.malloc(Math.max(1, bytes));
        LIVE_BYTES.addAndGet(bytes);
        return new DeviceBuffer(cuda, p, bytes);
    }

    /** The device address. */
    public long pointer() {
        return pointer;
    }

    public long byteSize() {
        return bytes;
    }

    /** Device bytes that Stoker holds now, over all buffers: zero once everything is closed. */
    public static long liveBytes() {
        return LIVE_BYTES.get();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cuda.free(pointer);
            LIVE_BYTES.addAndGet(-bytes);
        }
    }
}
