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
    public record Ticks(long total, long busy) {}

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
        if (before.total() < 0 || after.total() < 0 || after.total() <= before.total()) {
            return -1;
        }
        return Math.min(1, Math.max(0, (double) (after.busy() - before.busy()) / (after.total() - before.total())));
    }
}
