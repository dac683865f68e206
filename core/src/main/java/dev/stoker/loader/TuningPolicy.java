package dev.stoker.loader;

import dev.stoker.loader.TuningDecision.Reason;
import java.util.function.IntBinaryOperator;

/**
 * The autotuner's policy: from one window's signals (how long the consumer waited, how busy the
 * machine's cores were, how large a batch is) to the next settings. It reads no clock and no
 * counter itself, so a test feeds it signals and checks its moves, and {@code stoker tune} runs
 * the same policy offline. Stateful across windows (hysteresis), one window at a time.
 *
 * <p>In order, each window:
 * <ol>
 *   <li>the batches in flight would pass the budget: one prefetch less, or one worker less;
 *   <li>other processes keep the cores busy (the machine at {@value #SATURATED} or more with at
 *       least a core's worth not ours): one worker less, and none added for the next
 *       {@value #COOL_DOWN_WINDOWS} windows (prefetch may still grow), so that a busy machine
 *       does not make the count swing;
 *   <li>the consumer waited more than {@value #WAITS} of the window: in the I/O mode, while the
 *       workers were blocked rather than computing ({@link Signals#loadingCpu} under
 *       {@value #BLOCKED}), twice the fetches at once (up to the loader's {@code ioConcurrency}
 *       and a batch's samples per worker); else one worker more while the cores and the budget
 *       allow, then one prefetch more;
 *   <li>it waited less than {@value #IDLE} for {@value #QUIET_WINDOWS} windows in a row: in the
 *       I/O mode a quarter of the fetches at once less, then one worker less, unless a step down
 *       from here made it wait before (that count is then the floor).
 * </ol>
 *
 * <p>The I/O mode's fetches at once cost no batch memory: a worker fans out only the samples of
 * the batch it makes, so the samples in flight are those of the batches being made, at most
 * {@code workers x batchSize} whatever the count, and those batches are what the budget counts.
 * That is why the count never goes past a batch's samples per worker (more could never run) and
 * why it is raised, for a wait on I/O, before workers, each of which holds batches of its own.
 */
public final class TuningPolicy {
    /** The consumer waits when it waits more than this share of a window. */
    public static final double WAITS = 0.05;
    /** The consumer is idle when it waits less than this share of a window. */
    public static final double IDLE = 0.01;
    /** Busy share of the machine's cores from which they count as saturated. */
    public static final double SATURATED = 0.95;
    /** Windows after a step down for busy cores in which no worker is added. */
    public static final int COOL_DOWN_WINDOWS = 5;
    /** Idle windows in a row before a step down. */
    public static final int QUIET_WINDOWS = 3;
    /**
     * CPU seconds per second of loading under which the workers count as blocked (on storage, the
     * network, a sleep) rather than computing: then more fetches at once, not more workers.
     */
    public static final double BLOCKED = 0.5;

    /**
     * One window's signals.
     *
     * @param waitShare    share of the window the consumer spent waiting for data (0 to 1)
     * @param machineBusy  share of all the machine's cores busy in the window (0 to 1), NaN unknown
     * @param processShare share of all the machine's cores this process used (0 to 1), NaN unknown
     * @param batchBytes   bytes of one batch, or -1 while unknown
     * @param loadingCpu   the process's CPU time in the window (the consumer's own thread left out)
     *                     over the time the workers spent making batches (fetch and collate,
     *                     waits for pool memory left out): about 1 or more while they compute,
     *                     near 0 while they wait on I/O; NaN unknown (no CPU counter, no batch made)
     */
    public record Signals(double waitShare, double machineBusy, double processShare, long batchBytes,
                          double loadingCpu) {
        /** Signals without the loading CPU (unknown). */
        public Signals(double waitShare, double machineBusy, double processShare, long batchBytes) {
            this(waitShare, machineBusy, processShare, batchBytes, Double.NaN);
        }
    }

    /**
     * Workers making batches at once, prefetch per lane, and the I/O mode's fetches at once
     * ({@code io}, 0 without the I/O mode).
     */
    public record Settings(int workers, int prefetch, int io) {
        /** Settings without the I/O mode. */
        public Settings(int workers, int prefetch) {
            this(workers, prefetch, 0);
        }
    }

    /** What the policy does after a window. */
    public sealed interface Move permits Hold, Change {}

    /** Keep the settings. */
    public record Hold() implements Move {}

    /** Change to {@code to}, for {@code reason}. */
    public record Change(Settings to, Reason reason) implements Move {}

    private static final Hold HOLD = new Hold();

    private final int maxWorkers;
    private final int maxPrefetch;
    private final long budgetBytes;
    private final int cores;
    private final IntBinaryOperator inFlight;
    private final int maxIo; // 0: no I/O mode
    private final int batchSize;
    private int floor = 1;
    private int ioFloor = 1;
    private int quiet;
    private int coolDown; // windows left in which no worker is added (the cores were busy with others)
    private int steppedDownFrom; // the worker count before the last step down for idleness, 0 when none
    private int ioSteppedDownFrom; // the fetches at once before the last step down for idleness, 0 when none

    /**
     * @param maxWorkers  most workers (the lanes)
     * @param maxPrefetch most prefetch per lane
     * @param budgetBytes bytes the batches in flight and the consumer's batch may take
     * @param cores       the machine's cores
     * @param inFlight    batches in flight at most for (workers, prefetch): {@code w x p} for
     *                    map-style passes, {@code lanes x p} for streams
     */
    public TuningPolicy(int maxWorkers, int maxPrefetch, long budgetBytes, int cores, IntBinaryOperator inFlight) {
        this(maxWorkers, maxPrefetch, budgetBytes, cores, inFlight, 0, 1);
    }

    /**
     * A policy that also tunes the I/O mode's fetches at once, up to {@code maxIo} (0: no I/O
     * mode) and {@code batchSize} per worker making a batch.
     */
    public TuningPolicy(int maxWorkers, int maxPrefetch, long budgetBytes, int cores, IntBinaryOperator inFlight,
                        int maxIo, int batchSize) {
        if (maxWorkers < 1 || maxPrefetch < 1 || budgetBytes < 1 || cores < 1 || maxIo < 0 || batchSize < 1) {
            throw new IllegalArgumentException("a tuning policy needs positive limits, not " + maxWorkers
                    + " workers, prefetch " + maxPrefetch + ", " + budgetBytes + " bytes, " + cores + " cores, "
                    + maxIo + " fetches at once, batches of " + batchSize);
        }
        this.maxIo = maxIo;
        this.batchSize = batchSize;
        this.maxWorkers = maxWorkers;
        this.maxPrefetch = maxPrefetch;
        this.budgetBytes = budgetBytes;
        this.cores = cores;
        this.inFlight = inFlight;
    }

    /** Whether (workers, prefetch) keeps the batches in flight, and the consumer's one, within the budget. */
    public boolean fits(int workers, int prefetch, long batchBytes) {
        if (batchBytes < 0) {
            return true; // unknown before the first batch: the pool's budget holds meanwhile
        }
        long batches = inFlight.applyAsInt(workers, prefetch) + 1L;
        return batches <= budgetBytes / Math.max(1, batchBytes);
    }

    /** The move after a window with these signals, from {@code now}. */
    public Move next(Settings now, Signals s) {
        int w = now.workers();
        int p = now.prefetch();
        int io = now.io();
        if (w > 0 && !fits(w, p, s.batchBytes())) {
            quiet = 0;
            if (p > 1) {
                return change(w, p - 1, io, Reason.MEMORY_BUDGET);
            }
            return w > 1 ? change(w - 1, p, io, Reason.MEMORY_BUDGET) : HOLD;
        }
        boolean saturated = saturatedByOthers(s);
        boolean cooling = coolDown > 0;
        if (cooling) {
            coolDown--;
        }
        if (saturated && w > 1) {
            quiet = 0;
            coolDown = COOL_DOWN_WINDOWS;
            floor = Math.min(floor, w - 1);
            return change(w - 1, p, io, Reason.CPU_SATURATED);
        }
        if (s.waitShare() > WAITS) {
            quiet = 0;
            if (steppedDownFrom > 0) {
                floor = Math.max(floor, steppedDownFrom); // that step down made it wait: not again
                steppedDownFrom = 0;
            }
            if (ioSteppedDownFrom > 0) {
                ioFloor = Math.max(ioFloor, ioSteppedDownFrom);
                ioSteppedDownFrom = 0;
            }
            // blocked workers: their waits overlap better with more fetches at once, which cost no batch
            // memory and no core, than with more workers, which cost both
            if (w > 0 && io > 0 && blocked(s) && io < ioCeiling(w)) {
                return change(w, p, Math.min(ioCeiling(w), 2 * io), Reason.WAITS_ON_IO);
            }
            // from 0 a worker comes whatever the cores: the consumer's thread making the batches is no cheaper
            if (w < maxWorkers && (w == 0 || !saturated && !cooling) && fits(w + 1, p, s.batchBytes())) {
                return change(w + 1, p, io, Reason.CONSUMER_WAITS);
            }
            // prefetch more only where it lets more batches be made ahead (a stream's lanes may be bounded by the budget)
            if (p < maxPrefetch && fits(w, p + 1, s.batchBytes())
                    && inFlight.applyAsInt(w, p + 1) > inFlight.applyAsInt(w, p)) {
                return change(w, p + 1, io, Reason.CONSUMER_WAITS);
            }
            return HOLD;
        }
        if (s.waitShare() < IDLE) {
            if (++quiet >= QUIET_WINDOWS) {
                if (io > ioFloor) { // what a wait on I/O raised goes back first: it spares the storage
                    quiet = 0;
                    ioSteppedDownFrom = io;
                    steppedDownFrom = 0;
                    return change(w, p, Math.max(ioFloor, io - Math.max(1, io / 4)), Reason.CONSUMER_IDLE);
                }
                if (w > floor) {
                    quiet = 0;
                    steppedDownFrom = w;
                    ioSteppedDownFrom = 0;
                    return change(w - 1, p, io, Reason.CONSUMER_IDLE);
                }
            }
            return HOLD;
        }
        quiet = 0;
        return HOLD;
    }

    /** A change to (workers, prefetch, io), the fetches at once kept within what that many workers can run. */
    private Change change(int w, int p, int io, Reason reason) {
        return new Change(new Settings(w, p, io == 0 ? 0 : Math.max(1, Math.min(io, ioCeiling(w)))), reason);
    }

    /**
     * The most fetches at once worth having with {@code w} workers: each fans out the samples of
     * the one batch it makes, so more than a batch's samples per worker never run.
     */
    private int ioCeiling(int w) {
        return (int) Math.min(maxIo, (long) Math.max(1, w) * batchSize);
    }

    /**
     * Whether the workers were blocked rather than computing: CPU time under {@value #BLOCKED}
     * of their loading time. A worker that computes burns about a core-second per second of
     * loading; one that waits on storage burns next to none, though the stage clock sees both
     * "busy" for the same time. The process's CPU is the one figure that tells them apart and
     * that counts the work of the I/O mode's virtual threads as well as the workers'; the
     * consumer's own thread is left out of it. What else the process runs (GC, the JIT, other
     * threads of the job) only raises it, toward "computing", the answer the tuner gave before
     * it knew I/O: more workers, which overlap waits too.
     */
    private static boolean blocked(Signals s) {
        return !Double.isNaN(s.loadingCpu()) && s.loadingCpu() < BLOCKED;
    }

    private boolean saturatedByOthers(Signals s) {
        if (Double.isNaN(s.machineBusy()) || Double.isNaN(s.processShare())) {
            return false;
        }
        return s.machineBusy() >= SATURATED && s.machineBusy() - s.processShare() >= 1.0 / cores;
    }

    /** The fewest workers a step down may leave (raised where a step down made the consumer wait). */
    public int floor() {
        return floor;
    }

    /** The fewest fetches at once a step down may leave (raised where a step down made the consumer wait). */
    public int ioFloor() {
        return ioFloor;
    }
}
