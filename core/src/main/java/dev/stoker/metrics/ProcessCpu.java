package dev.stoker.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The CPU time this process has used, all threads together: what tells a worker that computes
 * from one that waits (on a disk, a socket, a sleep), since both are "busy" by the wall clock.
 */
public final class ProcessCpu {
    private static final AtomicBoolean PREPARING = new AtomicBoolean();

    private ProcessCpu() {
    }

    /** The platform's bean, found when this holder is initialized: by the first reading, or in the background. */
    private static final class Source {
        static final com.sun.management.OperatingSystemMXBean OS = find();

        private static com.sun.management.OperatingSystemMXBean find() {
            try {
                OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
                return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun : null;
            } catch (LinkageError | SecurityException e) {
                return null; // a runtime without java.management / jdk.management: CPU time is not known
            }
        }
    }

    /**
     * Gets the first reading ready on a thread of its own, once per JVM: in a new JVM the first
     * {@link #nanos()} takes some 60 ms (the platform MBeans, the container's cgroup files), which
     * a new loader's first pass spent on the consumer's thread while its workers made the first
     * batch. Started when a loader is built, it runs meanwhile; a reading asked for sooner waits
     * for it to finish (the JVM's class initialization lock), never does it twice.
     */
    public static void prepareInBackground() {
        if (PREPARING.getAndSet(true)) {
            return;
        }
        Thread.ofPlatform().daemon().name("stoker-cpu-clock").start(() -> {
            try {
                Class.forName(Source.class.getName(), true, ProcessCpu.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // the first reading then meets the same error, where it is handled as before
            }
        });
    }

    /** CPU nanoseconds used so far, or -1 where the runtime does not say. */
    public static long nanos() {
        com.sun.management.OperatingSystemMXBean os = Source.OS;
        if (os == null) {
            return -1;
        }
        long t = os.getProcessCpuTime();
        return t < 0 ? -1 : t;
    }
}
