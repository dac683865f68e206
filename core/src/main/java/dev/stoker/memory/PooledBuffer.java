package dev.stoker.memory;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A buffer lent by a {@link BufferPool}; {@link #close()} gives it back.
 *
 * <p>The segment is exactly as long as was asked for, though the block behind it may be larger.
 * Closing twice is harmless. After closing, the memory may be handed to someone else: do not keep
 * the segment, or views of it, past {@code close()}.
 *
 * <pre>{@code
 * try (PooledBuffer buf = pool.acquire(4096, "labels of batch 7")) {
 *     buf.segment().fill((byte) 0);
 * }
 * }</pre>
 */
public final class PooledBuffer implements AutoCloseable {
    private final BufferPool pool;
    final Allocation block;
    final long classBytes;
    final String owner;
    final Throwable acquiredAt;
    private final MemorySegment segment;
    private final AtomicBoolean closed = new AtomicBoolean();

    PooledBuffer(BufferPool pool, Allocation block, long classBytes, long bytes, String owner, Throwable acquiredAt) {
        this.pool = pool;
        this.block = block;
        this.classBytes = classBytes;
        this.owner = owner;
        this.acquiredAt = acquiredAt;
        this.segment = block.segment().asSlice(0, bytes);
    }

    public MemorySegment segment() {
        return segment;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** Who asked for this buffer, as given to {@link BufferPool#acquire(long, String)}. */
    public String owner() {
        return owner;
    }

    /** True when the memory is page-locked (mlock or CUDA's pinned memory). */
    public boolean isPageLocked() {
        return block.isPageLocked();
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            pool.giveBack(this);
        }
    }
}
