package dev.stoker.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU time this process has used, all threads together: what tells a worker that computes
 * from one that waits (on a disk, a socket, a sleep), since both are "busy" by the wall clock.
 */
public final class ProcessCpu {
    private static final com.sun.management.OperatingSystemMXBean OS = find();

    private ProcessCpu() {
    }

    private static com.sun.management.OperatingSystemMXBean find() {
        try {
            OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun : null;
        } catch (LinkageError | SecurityException e) {
            return null; // a runtime without java.management / jdk.management: CPU time is not known
        }
    }

    /** CPU nanoseconds used so far, or -1 where the runtime does not say. */
    public static long nanos() {
        if (OS == null) {
            return -1;
        }
        long t = OS.getProcessCpuTime();
        return t < 0 ? -1 : t;
    }
}
