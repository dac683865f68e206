package dev.stoker.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap memory, one shared arena per block: blocks of 2 MiB and more as anonymous mappings
 * advised for huge pages where the platform has them ({@link AnonymousMemory}), since that is what
 * makes a pool's first writes fast; smaller ones, and all of them elsewhere, from the JVM's allocator.
 */
final class OrdinaryMemory implements MemorySource {
    static final OrdinaryMemory INSTANCE = new OrdinaryMemory();

    private OrdinaryMemory() {}

    @Override
    public Allocation allocate(long bytes, long alignment) {
        return allocate(bytes, alignment, bytes);
    }

    @Override
    public Allocation allocate(long bytes, long alignment, long used) {
        Arena arena = Arena.ofShared();
        try {
            return new Allocation(fresh(bytes, alignment, arena, used), arena, false);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * A zeroed block owned by {@code arena}: mapped when it is large and the platform can, else
     * allocated; {@code used} as for {@link MemorySource#allocate(long, long, long)}.
     */
    static MemorySegment fresh(long bytes, long alignment, Arena arena, long used) {
        MemorySegment mapped = bytes >= AnonymousMemory.HUGE_PAGE
                ? AnonymousMemory.map(bytes, alignment, arena, used) : null;
        return mapped != null ? mapped : arena.allocate(bytes, alignment);
    }

    @Override
    public boolean isPageLocked() {
        return false;
    }

    @Override
    public String describe() {
        return AnonymousMemory.available()
                ? "ordinary off-heap memory (blocks of 2 MiB and more mapped for transparent huge pages)"
                : "ordinary off-heap memory";
    }
}
