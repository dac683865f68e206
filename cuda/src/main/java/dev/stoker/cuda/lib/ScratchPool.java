package dev.stoker.cuda.lib;

import java.util.ArrayList;
import java.util.List;

/**
 * A caching allocator for a library's scratch memory (nvJPEG's device and pinned buffers), with
 * stream-ordered reuse: a block given back on a stream can be handed out again at once to work on
 * the same stream, and to work on another stream once the GPU has passed the point where it was
 * given back (an event recorded then).
 *
 * <p>Why not CUDA's own allocators: {@code cudaFree} and {@code cudaFreeHost} wait for the whole
 * device, the training step's kernels included, so a library that frees scratch memory per batch
 * stalls the thread that feeds the GPU until the running step ends. Blocks are never freed while
 * the pool lives (only at {@link #close}, when the device is idle), except to stay under
 * {@code limitBytes}, and then only blocks the GPU is done with.
 *
 * <p>Thread-safe: a library may call it from threads of its own.
 */
public final class ScratchPool implements AutoCloseable {
    /** The native operations under the pool: real CUDA calls, or a stand-in in tests. */
    public interface Memory {
        /** New memory of {@code bytes}; its address. Throws when there is none. */
        long allocate(long bytes);

        /** Frees memory {@link #allocate} gave. Called only for blocks the GPU is done with. */
        void free(long address);

        /** A new event. */
        long newEvent();

        /** Marks the point in {@code stream} after the work queued so far. */
        void record(long event, long stream);

        /** Whether the GPU has passed the event's last recorded point. Never blocks. */
        boolean passed(long event);

        void destroyEvent(long event);
    }

    private static final long ALIGN = 256;

    private final String name;
    private final Memory memory;
    private final long limitBytes;
    private final List<Block> blocks = new ArrayList<>();
    private long heldBytes;
    private long allocations;
    private long reuses;
    private boolean closed;

    private static final class Block {
        final long address;
        final long bytes;
        final long event;
        boolean inUse;
        long freedOn;

        Block(long address, long bytes, long event) {
            this.address = address;
            this.bytes = bytes;
            this.event = event;
        }
    }

    /** @param limitBytes above this the pool frees blocks the GPU is done with before allocating */
    public ScratchPool(String name, Memory memory, long limitBytes) {
        this.name = name;
        this.memory = memory;
        this.limitBytes = limitBytes;
    }

    /**
     * A block of at least {@code bytes} for work on {@code stream}: a free one that is safe to
     * reuse there (the smallest that fits, and not more than twice the size asked for), else a new one.
     */
    public synchronized long allocate(long bytes, long stream) {
        if (closed) throw new IllegalStateException(name + " is closed");
        if (bytes < 0) throw new IllegalArgumentException(name + ": a request for " + bytes + " bytes");
        long size = sizeClass(Math.max(1, bytes));
        Block best = null;
        for (Block b : blocks) {
            if (!b.inUse && b.bytes >= size && b.bytes <= 2 * size && (best == null || b.bytes < best.bytes)
                    && (b.freedOn == stream || memory.passed(b.event))) {
                best = b;
            }
        }
        if (best != null) {
            best.inUse = true;
            reuses++;
            return best.address;
        }
        if (heldBytes + size > limitBytes) trim(size);
        long address = memory.allocate(size);
        Block b = new Block(address, size, memory.newEvent());
        b.inUse = true;
        blocks.add(b);
        heldBytes += size;
        allocations++;
        return address;
    }

    /** Gives back a block after the work queued on {@code stream} so far; false if the pool never gave it. */
    public synchronized boolean free(long address, long stream) {
        for (Block b : blocks) {
            if (b.address == address && b.inUse) {
                b.inUse = false;
                b.freedOn = stream;
                if (!closed) memory.record(b.event, stream);
                return true;
            }
        }
        return false;
    }

    /** Frees unused blocks the GPU is done with, the largest first, until {@code room} more bytes fit. */
    private void trim(long room) {
        List<Block> idle = new ArrayList<>();
        for (Block b : blocks) {
            if (!b.inUse && memory.passed(b.event)) idle.add(b);
        }
        idle.sort((x, y) -> Long.compare(y.bytes, x.bytes));
        for (Block b : idle) {
            if (heldBytes + room <= limitBytes) break;
            release(b);
        }
    }

    private void release(Block b) {
        blocks.remove(b);
        heldBytes -= b.bytes;
        memory.free(b.address);
        memory.destroyEvent(b.event);
    }

    /** Sizes rounded up to eighths of a power of two, so that batches of slightly different sizes reuse blocks. */
    static long sizeClass(long bytes) {
        long step = Math.max(ALIGN, Long.highestOneBit(bytes) / 8);
        return (bytes + step - 1) / step * step;
    }

    /** Blocks made with the underlying allocator so far. */
    public synchronized long allocations() {
        return allocations;
    }

    /** Requests served from blocks given back before. */
    public synchronized long reuses() {
        return reuses;
    }

    public synchronized long heldBytes() {
        return heldBytes;
    }

    /** Blocks handed out and not given back. */
    public synchronized int inUse() {
        int n = 0;
        for (Block b : blocks) {
            if (b.inUse) n++;
        }
        return n;
    }

    /** Frees every block. The device must be idle (the caller has synchronized it) and the library done with the pool. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (Block b : new ArrayList<>(blocks)) {
            release(b);
        }
    }
}
