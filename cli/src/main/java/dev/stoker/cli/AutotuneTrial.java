package dev.stoker.cli;

import dev.stoker.loader.DataLoader;
import dev.stoker.loader.StepLoop;
import dev.stoker.loader.TuningDecision;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One run of an autotuned loader against a stand-in step ({@code stoker tune --autotune}): when
 * the consumer's wait fell under 5% for good, the speed once settled, and the memory held against
 * the budget. The wait is measured by the loop itself: batch {@code i}'s wait is the time from
 * the end of step {@code i - 1} to its arrival, over a sliding window of {@value #WINDOW} batches.
 *
 * @param batches         batches taken
 * @param settledBatch    the first batch from which the window's wait stayed under 5%, or -1 never
 * @param settledSeconds  seconds from the first batch to that one, or NaN
 * @param steadyPerSecond batches per second over the second half of the run
 * @param finalWaitShare  the wait share over the second half of the run
 * @param peakPoolBytes   the most the loader's pool held
 * @param budgetBytes     the budget
 * @param decisions       the autotuner's changes, in order
 */
record AutotuneTrial(long batches, long settledBatch, double settledSeconds, double steadyPerSecond,
                     double finalWaitShare, long peakPoolBytes, long budgetBytes, List<TuningDecision> decisions) {
    static final int WINDOW = 20;
    static final double SETTLED = 0.05;

    /** Runs {@code batches} batches of {@code loader} against {@code step}. */
    static AutotuneTrial run(DataLoader<?> loader, long batches, Duration step, long budgetBytes) {
        long[] arrived = new long[(int) batches];
        long[] waited = new long[(int) batches];
        long[] previousEnd = {0};
        int[] n = {0};
        long stepNanos = step.toNanos();
        long taken = StepLoop.run(loader, batches, step, b -> {
            long now = System.nanoTime();
            int i = n[0]++;
            arrived[i] = now;
            waited[i] = i == 0 ? 0 : Math.max(0, now - (previousEnd[0]));
            previousEnd[0] = now + stepNanos; // the step ends (about) then; sleep overhead counts as wait
        });
        int count = (int) taken;
        long settled = -1;
        for (int i = WINDOW; i < count; i++) { // the last window that was over 5% sets the start
            long span = arrived[i] - arrived[i - WINDOW];
            long wait = 0;
            for (int j = i - WINDOW + 1; j <= i; j++) {
                wait += waited[j];
            }
            if ((double) wait / span >= SETTLED) {
                settled = -1;
            } else if (settled < 0) {
                settled = i;
            }
        }
        int half = count / 2;
        double steady = Double.NaN;
        double finalWait = Double.NaN;
        if (count - half > 1) {
            long span = arrived[count - 1] - arrived[half];
            steady = (count - 1 - half) / (span / 1e9);
            long wait = 0;
            for (int j = half + 1; j < count; j++) {
                wait += waited[j];
            }
            finalWait = (double) wait / span;
        }
        double seconds = settled < 0 ? Double.NaN : (arrived[(int) settled] - arrived[0]) / 1e9;
        return new AutotuneTrial(taken, settled, seconds, steady, finalWait, loader.pool().peakReservedBytes(),
                budgetBytes, loader.tuningLog());
    }

    /** What the run found, in lines for a person. */
    String report() {
        StringBuilder s = new StringBuilder();
        for (TuningDecision d : decisions) {
            s.append("  ").append(d.describe()).append('\n');
        }
        TuningDecision last = decisions.getLast();
        s.append(String.format(Locale.ROOT, "%nautotune settled on %d %s, prefetch %d: %s.%n", last.workers(),
                last.workers() == 1 ? "worker" : "workers", last.prefetch(), why(last)));
        s.append(settledBatch < 0
                ? "the consumer's wait never stayed under 5% of a " + WINDOW + "-batch window\n"
                : String.format(Locale.ROOT, "the consumer's wait stayed under 5%% from batch %d, %.2f s in%n",
                        settledBatch, settledSeconds));
        s.append(String.format(Locale.ROOT, "second half: %.1f batches/s, the consumer waiting %.1f%% of the time%n",
                steadyPerSecond, 100 * finalWaitShare));
        s.append(String.format(Locale.ROOT, "pool peak %s of a %s budget%s%n", ByteSize.format(peakPoolBytes),
                ByteSize.format(budgetBytes), peakPoolBytes > budgetBytes ? " (OVER)" : ""));
        return s.toString();
    }

    /** Why the run ended where it did, from the last change and the wait once settled. */
    private String why(TuningDecision d) {
        String wait = String.format(Locale.ROOT, "%.1f%%", 100 * finalWaitShare);
        if (finalWaitShare < SETTLED) {
            return switch (d.reason()) {
                case START -> "where it started: one worker keeps this step fed, the consumer waiting " + wait;
                case CONSUMER_IDLE -> "a worker fewer than it had, once the consumer stopped waiting; it waits " + wait;
                default -> "the consumer is fed: it waited " + wait + " of the second half";
            };
        }
        return switch (d.reason()) {
            case CPU_SATURATED -> "the consumer still waits " + wait + ": other processes keep the cores busy, so"
                    + " no worker was added back";
            case MEMORY_BUDGET -> "the consumer still waits " + wait + ": the memory budget allows no more";
            default -> "the consumer still waits " + wait + ": every lane and all prefetch in use, the cores busy,"
                    + " or the run too short to add more (see the changes above)";
        };
    }
}
