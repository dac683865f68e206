package dev.stoker.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peak resident memory of this process over a stretch of time (Linux; elsewhere it reports
 * nothing). A daemon thread reads {@code VmRSS} from {@code /proc/self/status} at a fixed
 * interval; at the end the kernel's own high-water mark {@code VmHWM} is read as well, which also
 * catches peaks between two samples. Since every configuration runs in this one process, the
 * high-water mark is reset at the start (writing {@code 5} to {@code /proc/self/clear_refs});
 * where the kernel refuses, only the samples count.
 *
 * <pre>{@code
 * try (PeakMemory peak = PeakMemory.start(Duration.ofMillis(50))) {
 *     runTheRepetitions();
 *     long bytes = peak.peakRssBytes();   // -1 where /proc is not there
 * }
 * }</pre>
 */
final class PeakMemory implements AutoCloseable {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

    private final Thread sampler;
    private final boolean highWaterReset;
    private final AtomicLong peakSampled = new AtomicLong(-1); // written by the sampler and by the caller
    private volatile boolean stop;

    private PeakMemory(Duration interval) {
        this.highWaterReset = resetHighWater();
        sample();
        this.sampler = Thread.ofPlatform().daemon().name("stoker-bench-rss").unstarted(() -> {
            while (!stop) {
                sample();
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();
    }

    /** Starts sampling every {@code interval}. */
    static PeakMemory start(Duration interval) {
        return new PeakMemory(interval);
    }

    private void sample() {
        long rss = readKb("VmRSS:");
        if (rss >= 0) {
            peakSampled.accumulateAndGet(rss * 1024, Math::max);
        }
    }

    /** The peak RSS in bytes since {@link #start}, or -1 where it cannot be read. */
    long peakRssBytes() {
        sample();
        long peak = peakSampled.get();
        if (highWaterReset) {
            long hwm = readKb("VmHWM:");
            if (hwm >= 0) {
                peak = Math.max(peak, hwm * 1024);
            }
        }
        return peak;
    }

    @Override
    public void close() {
        stop = true;
        sampler.interrupt();
    }

    private static boolean resetHighWater() {
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false; // not Linux, or an old kernel: the samples alone give the peak
        }
    }

    /** A {@code kB} field of /proc/self/status, or -1. */
    private static long readKb(String field) {
        try {
            List<String> lines = Files.readAllLines(STATUS);
            for (String line : lines) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through: unknown
        }
        return -1;
    }
}
