package dev.stoker.cuda;

import dev.stoker.memory.Allocation;
import dev.stoker.memory.MemorySource;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Page-locked host memory from {@code cudaHostAlloc}: the source for a pool whose batches are born
 * pinned, so the copy to the device needs no staging and can run while the CPU goes on.
 *
 * <p>Each block's segment is bound to its own arena, and closing it calls {@code cudaFreeHost};
 * a stale segment then fails to read instead of touching freed memory.
 *
 * <pre>{@code
 * BufferPool pool = BufferPool.builder().source(new PinnedMemory(Cuda.require())).build();
 * }</pre>
 */
public final class PinnedMemory implements MemorySource {
    private static final AtomicLong LIVE_BYTES = new AtomicLong();
    private final CudaRuntime cuda;

    public PinnedMemory(CudaRuntime cuda) {
        this.cuda = cuda;
    }

    @Override
    public Allocation allocate(long bytes, long alignment) {
        if (alignment > 4096) {
            throw new IllegalArgumentException("cudaHostAlloc aligns to pages (4096), not " + alignment);
        }
        long address = cuda.hostAlloc(bytes);
        LIVE_BYTES.addAndGet(bytes);
        Arena arena = Arena.ofShared();
        MemorySegment segment = MemorySegment.ofAddress(address).reinterpret(bytes, arena, s -> {
            cuda.freeHost(address);
            LIVE_BYTES.addAndGet(-bytes);
        });
        return new Allocation(segment, arena, true);
    }

    @Override
    public boolean isPageLocked() {
        return true;
    }

    @Override
    public String describe() {
        return "page-locked memory from cudaHostAlloc";
    }

    /** Pinned bytes that Stoker holds now, over all sources: zero once every pool is closed. */
    public static long liveBytes() {
        return LIVE_BYTES.get();
    }
}
