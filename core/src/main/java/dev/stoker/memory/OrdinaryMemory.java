package dev.stoker.memory;

import java.lang.foreign.Arena;

/** Off-heap memory from the JVM's allocator, one shared arena per block. */
final class OrdinaryMemory implements MemorySource {
    static final OrdinaryMemory INSTANCE = new OrdinaryMemory();

    private OrdinaryMemory() {}

    @Override
    public Allocation allocate(long bytes, long alignment) {
        Arena arena = Arena.ofShared();
        try {
            return new Allocation(arena.allocate(bytes, alignment), arena, false);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public boolean isPageLocked() {
        return false;
    }

    @Override
    public String describe() {
        return "ordinary off-heap memory";
    }
}
