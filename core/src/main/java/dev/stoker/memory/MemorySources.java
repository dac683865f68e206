package dev.stoker.memory;

/**
 * The memory sources that need nothing but the JDK.
 *
 * <pre>{@code
 * MemorySource plain = MemorySources.ordinary();
 * MemorySource locked = MemorySources.locked();   // mlock, or ordinary memory when refused
 * System.out.println(locked.describe());
 * }</pre>
 */
public final class MemorySources {
    private MemorySources() {}

    /** Ordinary off-heap memory. */
    public static MemorySource ordinary() {
        return OrdinaryMemory.INSTANCE;
    }

    /**
     * Memory locked into RAM with {@code mlock} where the limits allow, ordinary memory otherwise;
     * {@link MemorySource#describe()} tells which. Each call gives a new source with its own count.
     */
    public static MemorySource locked() {
        return new LockedMemory();
    }
}
