package dev.stoker.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One block of memory from a {@link MemorySource}, freed when closed.
 *
 * <p>The segment is bound to its own shared arena, so after {@link #close()} any access through
 * a stale segment fails with an {@link IllegalStateException} instead of touching freed memory.
 */
public final class Allocation implements AutoCloseable {
    private final MemorySegment segment;
    private final Arena arena;
    private final boolean pageLocked;

    /** Wraps {@code segment}, which must belong to {@code arena}; closing frees both. */
    public Allocation(MemorySegment segment, Arena arena, boolean pageLocked) {
        this.segment = segment;
        this.arena = arena;
        this.pageLocked = pageLocked;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    public boolean isPageLocked() {
        return pageLocked;
    }

    @Override
    public void close() {
        arena.close();
    }
}
