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
     * Links the native calls that {@linkplain #ordinary() ordinary memory} maps its large blocks
     * with ({@code mmap}, {@code madvise}), on the calling thread, once per JVM; later calls return
     * at once, or wait for a link under way. Until they are linked, a new JVM's pools allocate and
     * zero their blocks instead: for a first batch of 40 MB, 40-60 ms of the worker that asked for
     * it, while the workers that share the batch wait. The link costs 100-300 ms of a core where
     * nothing has used the FFM linker yet, 20-30 ms where something has: call it from a thread of
     * your own that has just linked a native library (Stoker's JPEG decoder does, after
     * libjpeg-turbo), and a pool links the calls itself otherwise, in the background.
     */
    public static void linkNativeCalls() {
        AnonymousMemory.link();
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
