package dev.stoker.vision.transform;

import java.lang.management.ManagementFactory;

/**
 * The bytes of heap the current thread has allocated so far, where the JVM counts them
 * (HotSpot does, by default); {@link #UNKNOWN} elsewhere. {@link VectorWarmup} reads it to tell
 * vector code that C2 has compiled (which allocates nothing per vector) from vector code that
 * still runs in the interpreter or C1 (which allocates every vector it makes).
 */
final class AllocationMeter {
    static final long UNKNOWN = -1;

    private AllocationMeter() {}

    private static final class Bean {
        static final com.sun.management.ThreadMXBean THREADS = find();

        private static com.sun.management.ThreadMXBean find() {
            try {
                if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                        && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
                    return t;
                }
            } catch (LinkageError | SecurityException e) {
                // a runtime without jdk.management: the warm-up goes by time alone
            }
            return null;
        }
    }

    static long currentThreadBytes() {
        com.sun.management.ThreadMXBean t = Bean.THREADS;
        return t == null ? UNKNOWN : t.getCurrentThreadAllocatedBytes();
    }
}
