package dev.stoker.memory;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The memory sources that need nothing but the JDK.
 *
 * <pre>{@code
 * MemorySource plain = MemorySources.ordinary();
 * MemorySource locked = MemorySources.locked();   // mlock, or ordinary memory when refused
 * MemorySource pinned = MemorySources.pinned();   // cudaHostAlloc with stoker-cuda, else locked()
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
     * Page-locked memory for copies to an accelerator: from the first {@link PinnedMemoryProvider}
     * on the class path whose device is present (CUDA's {@code cudaHostAlloc} with
     * {@code stoker-cuda}), else {@link #locked()}. Logs one line saying which, and why.
     */
    public static MemorySource pinned() {
        StringBuilder why = new StringBuilder();
        for (PinnedMemoryProvider p : ServiceLoader.load(PinnedMemoryProvider.class)) {
            Optional<MemorySource> s = p.source();
            if (s.isPresent()) {
                return s.get();
            }
            why.append(p.unavailableReason()).append("; ");
        }
        MemorySource locked = locked();
        log().log(System.Logger.Level.INFO, "pinned memory: " + (why.isEmpty() ? "no accelerator module on the class path; " : why)
                + "using " + locked.describe());
        return locked;
    }

    /**
     * Memory locked into RAM with {@code mlock} where the limits allow, ordinary memory otherwise;
     * {@link MemorySource#describe()} tells which. Each call gives a new source with its own count.
     */
    public static MemorySource locked() {
        return new LockedMemory();
    }

    /**
     * The logger, looked up when there is something to say: a static logger field started the
     * JDK's logging (about 10 ms of a new JVM) when this class was loaded, on a first loader's path.
     */
    private static System.Logger log() {
        return System.getLogger(MemorySources.class.getName());
    }
}
