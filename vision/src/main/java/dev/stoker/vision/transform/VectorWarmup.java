package dev.stoker.vision.transform;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gets the resampler's vector code compiled on a thread of its own while the workers render with
 * the plain loops, and tells {@link Mac} to hand over once it is.
 *
 * <p>Until C2 has compiled it, every vector operation is Java code that allocates its result: a
 * W3-sized image then allocated some 50 MB, and rendering them back to back while C2 worked
 * allocated 1-3 GB in 1-2 s, through which G1 grew the heap to 100-140 MB and kept it. So the
 * warm-up renders small images (through each branch the workers take: the permuted and the
 * gathered taps, a flip, a partial last vector, into native memory as a batch's slots are: see
 * {@link WarmupScene}), pauses after each round so that it allocates at
 * most {@link #BYTES_PER_SECOND}, and counts C2's code as ready when a round of vector renders
 * allocates no more than the plain one ({@link AllocationMeter}). A W3-sized image rendered both
 * ways, timed, then confirms that the vector code is the faster: {@link #WINS} rounds in a row
 * (one win can be the plain side's thread preempted). Where the JVM does not count allocations,
 * the small rounds go by time too. It gives up waiting after {@link #MAX_NANOS} (a machine too
 * busy to time anything) and hands over anyway.
 */
final class VectorWarmup {
    private static final int WINS = 3;
    /** Small rounds in a row that allocated no more than the plain loops did. */
    private static final int CLEAN_ROUNDS = 3;
    /** What a vector round may allocate beyond the plain one and count as compiled: small objects, no vectors. */
    private static final long SLACK_BYTES = 16 * 1024;
    private static final long BYTES_PER_SECOND = 64L << 20;
    /** Where allocations are not counted: pause this many times the vector renders' time. */
    private static final int PAUSE_FACTOR = 20;
    private static final long MAX_NANOS = 10_000_000_000L;
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile Outcome outcome = Outcome.NOT_STARTED;

    /** How the warm-up went, for tests and diagnostics. */
    enum Outcome {
        NOT_STARTED,
        RUNNING,
        /** The vector code ran without allocating vectors, and beat the plain loops on a full image. */
        COMPILED,
        /** It stopped waiting at {@link #MAX_NANOS} and handed over anyway. */
        GAVE_UP,
        /** The vector code threw; it handed over anyway (the tests check that code). */
        FAILED
    }

    private VectorWarmup() {}

    /** Starts the warm-up once per JVM (a daemon thread: it never keeps the JVM alive). */
    static void start() {
        if (STARTED.compareAndSet(false, true)) {
            outcome = Outcome.RUNNING;
            Thread t = new Thread(VectorWarmup::run, "stoker-vector-warmup");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void run() {
        try (Arena arena = Arena.ofConfined()) {
            SourcePixels pixels = WarmupScene.pixels(500, 375, arena);
            List<WarmupScene> small = List.of(
                    // Narrow and tall: C2 compiles after some thousand calls of each row method,
                    // and a row one vector wide costs the fewest vector operations a call.
                    // Shrinking by 1.5 across: each lane group's taps from two vectors, permuted.
                    WarmupScene.of(pixels, new CropBox(0, 0, 160, 24), false, 240, 16, arena),
                    // By 4, flipped, 20 wide: the gathered taps, a partial last vector.
                    WarmupScene.of(pixels, new CropBox(200, 100, 16, 80), true, 4, 20, arena));
            WarmupScene full = WarmupScene.of(pixels, new CropBox(20, 30, 300, 400), false, 224, 224, arena);
            Scratch scratch = new Scratch();
            long deadline = System.nanoTime() + MAX_NANOS;
            boolean compiled = compileOnSmallImages(small, scratch, deadline)
                    && confirmOnAFullImage(full, scratch, deadline);
            outcome = compiled ? Outcome.COMPILED : Outcome.GAVE_UP;
        } catch (RuntimeException | LinkageError e) {
            // the vector code is checked by the tests; here it only warms up: hand over as before
            outcome = Outcome.FAILED;
        } catch (InterruptedException e) {
            outcome = Outcome.GAVE_UP;
            Thread.currentThread().interrupt();
        } finally {
            Mac.handOver();
        }
    }

    static Outcome outcome() {
        return outcome;
    }

    /** Whether the small rounds came out clean before {@code deadline}. */
    private static boolean compileOnSmallImages(List<WarmupScene> scenes, Scratch scratch, long deadline)
            throws InterruptedException {
        int clean = 0;
        while (clean < CLEAN_ROUNDS && System.nanoTime() < deadline) {
            long b0 = AllocationMeter.currentThreadBytes();
            long t0 = System.nanoTime();
            for (WarmupScene s : scenes) {
                s.vector(scratch);
            }
            long b1 = AllocationMeter.currentThreadBytes();
            long t1 = System.nanoTime();
            for (WarmupScene s : scenes) {
                s.plain(scratch);
            }
            long b2 = AllocationMeter.currentThreadBytes();
            long t2 = System.nanoTime();
            boolean counted = b0 != AllocationMeter.UNKNOWN;
            boolean compiled = counted ? b1 - b0 <= b2 - b1 + SLACK_BYTES : t1 - t0 < t2 - t1;
            clean = compiled ? clean + 1 : 0;
            pause(counted ? b2 - b0 : -1, t2 - t0, t1 - t0);
        }
        return clean >= CLEAN_ROUNDS;
    }

    /** Whether the vector code won {@link #WINS} full-image rounds in a row before {@code deadline}. */
    private static boolean confirmOnAFullImage(WarmupScene full, Scratch scratch, long deadline)
            throws InterruptedException {
        int wins = 0;
        while (wins < WINS && System.nanoTime() < deadline) {
            long b0 = AllocationMeter.currentThreadBytes();
            long t0 = System.nanoTime();
            full.vector(scratch);
            long t1 = System.nanoTime();
            full.plain(scratch);
            long t2 = System.nanoTime();
            long b2 = AllocationMeter.currentThreadBytes();
            wins = t1 - t0 < t2 - t1 ? wins + 1 : 0;
            pause(b0 == AllocationMeter.UNKNOWN ? -1 : b2 - b0, t2 - t0, t1 - t0);
        }
        return wins >= WINS;
    }

    /**
     * Pauses so that a round that allocated {@code bytes} in {@code roundNanos} averages at most
     * {@link #BYTES_PER_SECOND}; where bytes are not counted ({@code -1}), for
     * {@link #PAUSE_FACTOR} times the vector renders' time.
     */
    private static void pause(long bytes, long roundNanos, long vectorNanos) throws InterruptedException {
        long nanos = bytes >= 0
                ? bytes * 1_000_000_000L / BYTES_PER_SECOND - roundNanos
                : vectorNanos * PAUSE_FACTOR;
        if (nanos > 0) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    }
}
