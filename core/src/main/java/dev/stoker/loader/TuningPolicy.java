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
 *   <li>the consumer waited more than {@value #WAITS} of the window: one worker more while the
 *       cores and the budget allow, then one prefetch more;
 *   <li>it waited less than {@value #IDLE} for {@value #QUIET_WINDOWS} windows in a row: one
 *       worker less, unless a step down from here made it wait before (that count is then the
 *       floor).
 * </ol>
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
     * One window's signals.
     *
     * @param waitShare    share of the window the consumer spent waiting for data (0 to 1)
     * @param machineBusy  share of all the machine's cores busy in the window (0 to 1), NaN unknown
     * @param processShare share of all the machine's cores this process used (0 to 1), NaN unknown
     * @param batchBytes   bytes of one batch, or -1 while unknown
     */
    public record Signals(double waitShare, double machineBusy, double processShare, long batchBytes) {}

    /** Workers making batches at once, and prefetch per lane. */
    public record Settings(int workers, int prefetch) {}

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
    private int floor = 1;
    private int quiet;
    private int coolDown; // windows left in which no worker is added (the cores were busy with others)
    private int steppedDownFrom; // the worker count before the last step down for idleness, 0 when none

    /**
     * @param maxWorkers  most workers (the lanes)
     * @param maxPrefetch most prefetch per lane
     * @param budgetBytes bytes the batches in flight and the consumer's batch may take
     * @param cores       the machine's cores
     * @param inFlight    batches in flight at most for (workers, prefetch): {@code w x p} for
     *                    map-style passes, {@code lanes x p} for streams
     */
    public TuningPolicy(int maxWorkers, int maxPrefetch, long budgetBytes, int cores, IntBinaryOperator inFlight) {
        if (maxWorkers < 1 || maxPrefetch < 1 || budgetBytes < 1 || cores < 1) {
            throw new IllegalArgumentException("a tuning policy needs positive limits, not " + maxWorkers
                    + " workers, prefetch " + maxPrefetch + ", " + budgetBytes + " bytes, " + cores + " cores");
        }
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
        if (w > 0 && !fits(w, p, s.batchBytes())) {
            quiet = 0;
            if (p > 1) {
                return new Change(new Settings(w, p - 1), Reason.MEMORY_BUDGET);
            }
            return w > 1 ? new Change(new Settings(w - 1, p), Reason.MEMORY_BUDGET) : HOLD;
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
            return new Change(new Settings(w - 1, p), Reason.CPU_SATURATED);
        }
        if (s.waitShare() > WAITS) {
            quiet = 0;
            if (steppedDownFrom > 0) {
                floor = Math.max(floor, steppedDownFrom); // that step down made it wait: not again
                steppedDownFrom = 0;
            }
            // from 0 a worker comes whatever the cores: the consumer's thread making the batches is no cheaper
            if (w < maxWorkers && (w == 0 || !saturated && !cooling) && fits(w + 1, p, s.batchBytes())) {
                return new Change(new Settings(w + 1, p), Reason.CONSUMER_WAITS);
            }
            if (p < maxPrefetch && fits(w, p + 1, s.batchBytes())) {
                return new Change(new Settings(w, p + 1), Reason.CONSUMER_WAITS);
            }
            return HOLD;
        }
        if (s.waitShare() < IDLE) {
            if (++quiet >= QUIET_WINDOWS && w > floor) {
                quiet = 0;
                steppedDownFrom = w;
                return new Change(new Settings(w - 1, p), Reason.CONSUMER_IDLE);
            }
            return HOLD;
        }
        quiet = 0;
        return HOLD;
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
}
