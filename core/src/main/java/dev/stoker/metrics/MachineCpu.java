package dev.stoker.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the whole machine's processors were, every process together, from the kernel's
 * counters ({@code /proc/stat} on Linux): what tells a loader whose workers get few cores because
 * other processes (other ranks' loaders, a build) hold them from one whose workers wait on I/O.
 *
 * <pre>{@code
 * MachineCpu.Ticks before = MachineCpu.ticks();
 * work();
 * double busy = MachineCpu.busyShare(before, MachineCpu.ticks());   // 0.97: the machine was full
 * }</pre>
 */
public final class MachineCpu {
    private static final Path STAT = Path.of("/proc/stat");

    /**
     * The kernel's counters at one moment, in its ticks: all of them, and the busy ones (all but
     * idle and I/O wait). {@link #UNKNOWN} where the system does not say.
     */
    public record Ticks(long total, long busy) {
        /** Whether the system gave these counters. */
        public boolean known() {
            return total >= 0;
        }

        /** The ticks from {@code earlier} to these; unknown if either is. */
        public Ticks minus(Ticks earlier) {
            return known() && earlier.known() ? new Ticks(total - earlier.total, busy - earlier.busy) : UNKNOWN;
        }

        /** The ticks of two spans together; unknown if either is. */
        public Ticks plus(Ticks other) {
            return known() && other.known() ? new Ticks(total + other.total, busy + other.busy) : UNKNOWN;
        }

        /** Busy ticks over all, for counters that span a time; -1 when unknown or empty. */
        public double busyShare() {
            return total <= 0 ? -1 : Math.min(1, Math.max(0, (double) busy / total));
        }
    }

    /** Counters of a system without {@code /proc/stat}. */
    public static final Ticks UNKNOWN = new Ticks(-1, -1);

    private MachineCpu() {
    }

    /** The counters now, or {@link #UNKNOWN}. */
    public static Ticks ticks() {
        if (!Files.isReadable(STAT)) {
            return UNKNOWN;
        }
        try (BufferedReader r = Files.newBufferedReader(STAT)) {
            return parse(r.readLine());
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** The counters of {@code /proc/stat}'s first line, {@code cpu user nice system idle iowait irq ...}. */
    static Ticks parse(String line) {
        if (line == null || !line.startsWith("cpu ")) {
            return UNKNOWN;
        }
        String[] f = line.trim().split("\\s+");
        if (f.length < 5) {
            return UNKNOWN;
        }
        long total = 0;
        long idle = 0;
        // user nice system idle iowait irq softirq steal; guest and guest_nice are already in user and nice
        for (int i = 1; i < Math.min(f.length, 9); i++) {
            long v = Long.parseLong(f[i]);
            total += v;
            if (i == 4 || i == 5) {
                idle += v;
            }
        }
        return new Ticks(total, total - idle);
    }

    /** The share of processor time the machine spent busy between two readings, or -1 when not known. */
    public static double busyShare(Ticks before, Ticks after) {
        return after.minus(before).busyShare();
    }
}
