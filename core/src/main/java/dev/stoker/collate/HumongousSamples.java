package dev.stoker.collate;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Says once that a batch is stacked from per-sample arrays on the heap which G1 holds as
 * <em>humongous</em> objects: arrays of at least half a heap region (602 KB for a 224x224 f32
 * image, against G1's 1 MiB regions under a heap of up to 2 GiB) get regions of their own and are
 * reclaimed only at a collection, while the young generation that would trigger one fills slowly.
 * Under a loader making 1,000 such samples a second, W3's collate path peaked anywhere from 380 to
 * 1,400 MiB from run to run for 150 MiB of samples in flight. Nothing is wrong with the batches,
 * so this is a hint in the log, not an error: it names the field and the two ways out.
 */
final class HumongousSamples {
    private static final System.Logger LOG = System.getLogger(DefaultCollate.class.getName());
    /** An array's header on a 64-bit HotSpot (mark word, class pointer, length), counted by G1. */
    private static final long ARRAY_HEADER = 16;

    /** Half of G1's smallest region: no array under it is humongous, whatever the region size. */
    private static final long NEVER_UNDER = (1L << 20) / 2;

    private final LongSupplier regionSize;
    private final AtomicBoolean said = new AtomicBoolean();
    private volatile long regionBytes = -1; // not asked yet

    /**
     * For the running JVM: G1's region size, asked of the JVM the first time an array large
     * enough to be humongous under some region size comes (never, on most loaders' paths).
     */
    static HumongousSamples ofThisJvm() {
        return new HumongousSamples(HumongousSamples::g1RegionBytes);
    }

    /** @param regionSize G1's region size in bytes, or 0 where G1 is not the collector (nothing is then said) */
    HumongousSamples(LongSupplier regionSize) {
        this.regionSize = regionSize;
    }

    /**
     * Notes that the values at {@code path} are arrays of {@code bytes} bytes each on the heap,
     * and logs the hint the first time they are humongous; returns whether it did.
     */
    boolean note(long bytes, FieldPath path) {
        if (bytes + ARRAY_HEADER < NEVER_UNDER || said.get()) {
            return false;
        }
        long region = regionBytes();
        if (region <= 0 || bytes + ARRAY_HEADER < region / 2 || !said.compareAndSet(false, true)) {
            return false;
        }
        LOG.log(System.Logger.Level.INFO, () -> message(bytes, path, region));
        return true;
    }

    private long regionBytes() {
        long r = regionBytes;
        if (r < 0) {
            r = regionSize.getAsLong();
            regionBytes = r;
        }
        return r;
    }

    private static String message(long bytes, FieldPath path, long regionBytes) {
        long region = regionFor(bytes);
        return "collating " + path + ", " + bytes + " bytes a sample in arrays on the Java heap: to G1 each is a"
                + " humongous object (at least half of a " + regionBytes / 1024 + " KiB region), reclaimed only at a"
                + " collection, so the heap can grow to several times the samples in flight. A dataset that writes"
                + " its samples into the batch (FillableDataset, the fill path) keeps no per-sample arrays"
                + (region > 0 ? "; or give the JVM -XX:G1HeapRegionSize=" + (region >> 20) + "m, under which they are"
                        + " ordinary objects, copied while they live (docs/jvm-flags.md)" : "");
    }

    /**
     * The smallest region G1 offers (a power of two from 1 to 32 MiB) of which an array of
     * {@code bytes} is less than half, or 0 when none is.
     */
    static long regionFor(long bytes) {
        for (long region = 1L << 20; region <= 32L << 20; region <<= 1) {
            if (bytes + ARRAY_HEADER < region / 2) {
                return region;
            }
        }
        return 0;
    }

    /** G1's region size in bytes, or 0 when G1 is not the collector or the JVM does not say. */
    private static long g1RegionBytes() {
        try {
            boolean g1 = ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .map(GarbageCollectorMXBean::getName)
                    .anyMatch(name -> name.startsWith("G1 "));
            if (!g1) {
                return 0;
            }
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue());
        } catch (RuntimeException e) { // another JVM: no such bean or option; the hint is only a hint
            return 0;
        }
    }
}
