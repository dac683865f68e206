package dev.stoker.cli;

import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.InFlightBound;
import dev.stoker.loader.TuningDecision;
import dev.stoker.metrics.MachineCpu;
import dev.stoker.metrics.ProcessCpu;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * One run of an autotuned loader against a stand-in step ({@code stoker tune}): the loop takes
 * batches and sleeps the step after each, as a training loop waits for the GPU, until the
 * controller has made no change for {@code settle} batches and {@code settleTime} (settled), or
 * {@code maxBatches} were taken. Then: where it settled and why ({@link TuningExplanation}),
 * when the consumer's wait fell under 5% for good, the speed once settled, and the memory held
 * against the budget.
 *
 * <p>The wait is measured by the loop itself: batch {@code i}'s wait is the time from the end of
 * step {@code i - 1} to its arrival; "under 5% for good" is over a sliding window of
 * {@value #WINDOW} batches. Each pass's (epoch's) first batch is left out of it, as the
 * controller leaves it out: its wait is the pass starting, which no worker or prefetch more
 * hides; it is reported on its own line.
 *
 * @param batches         batches taken
 * @param settled         whether the controller settled before the run's end
 * @param settledFrom     the batch of the controller's last change: the settled part runs from there
 * @param fedBatch        the first batch from which the window's wait stayed under 5%, or -1 never
 * @param fedSeconds      seconds from the first batch to that one, or NaN
 * @param steadyPerSecond batches per second once settled (the second half, if it never settled)
 * @param steadyWaitShare the share of that part the consumer spent waiting
 * @param passStartMillis the mean wait of each pass's first batch after the first pass's, in ms (NaN: one pass)
 * @param peakPoolBytes   the most the loader's pool held
 * @param budgetBytes     the budget
 * @param decisions       the autotuner's changes, its start first
 * @param explanation     why the count it ended on
 */
record AutotuneTrial(long batches, boolean settled, long settledFrom, long fedBatch, double fedSeconds,
                     double steadyPerSecond, double steadyWaitShare, double passStartMillis, long peakPoolBytes,
                     long budgetBytes,
                     List<TuningDecision> decisions, TuningExplanation explanation) {
    static final int WINDOW = 20;
    static final double FED = 0.05;

    /** How long a run goes on and when it counts as settled. */
    record Limits(long maxBatches, int settleBatches, Duration settleTime) {
        Limits {
            if (maxBatches < 2 || maxBatches > Integer.MAX_VALUE - 8 || settleBatches < 2) {
                throw new IllegalArgumentException("a run needs 2 or more batches and a settled part of 2 or more, not "
                        + maxBatches + " and " + settleBatches);
            }
        }
    }

    /**
     * Runs {@code loader} (autotuned, on {@code lanes} worker threads with at most {@code maxPrefetch}
     * each) against {@code step} until it settles or {@code limits} end the run.
     */
    static AutotuneTrial run(DataLoader<?> loader, Limits limits, Duration step, long budgetBytes, int lanes,
                             int maxPrefetch) {
        return run(loader, limits, step, budgetBytes, lanes, maxPrefetch, TuningExplanation.FetchLimits.NONE);
    }

    /** As {@link #run(DataLoader, Limits, Duration, long, int, int)}, in the I/O mode bounded by {@code fetchLimits}. */
    static AutotuneTrial run(DataLoader<?> loader, Limits limits, Duration step, long budgetBytes, int lanes,
                             int maxPrefetch, TuningExplanation.FetchLimits fetchLimits) {
        int max = (int) limits.maxBatches();
        long[] arrived = new long[max];
        long[] waited = new long[max];
        long stepNanos = step.toNanos();
        long settleNanos = limits.settleTime().toNanos();
        int count = 0;
        long stepEnd = 0;
        long passStartWait = 0;
        int passStarts = 0;
        boolean settled = false;
        List<TuningDecision> log = loader.tuningLog();
        long changeSeen = System.nanoTime(); // when the loop first saw the last change
        MachineCpu.Ticks machineAtChange = MachineCpu.ticks();
        long processAtChange = ProcessCpu.nanos();
        run:
        while (count < max) {
            int before = count;
            try (BatchIterator it = loader.iterator()) {
                boolean passStart = true;
                while (count < max && it.hasNext()) {
                    try (Batch b = it.next()) {
                        long now = System.nanoTime();
                        arrived[count] = now;
                        long wait = count == 0 ? 0 : Math.max(0, now - stepEnd);
                        if (passStart && count > 0) { // the pass starting: on its own line, not in the windows
                            passStartWait += wait;
                            passStarts++;
                            wait = 0;
                        }
                        passStart = false;
                        waited[count] = wait;
                        count++;
                        List<TuningDecision> nowLog = loader.tuningLog();
                        if (nowLog.size() != log.size()) {
                            log = nowLog;
                            changeSeen = now;
                            machineAtChange = MachineCpu.ticks();
                            processAtChange = ProcessCpu.nanos();
                        }
                        if (count - log.getLast().batch() >= limits.settleBatches() && now - changeSeen >= settleNanos) {
                            settled = true;
                            break run;
                        }
                        sleep(stepNanos);
                        stepEnd = System.nanoTime();
                    }
                }
            }
            if (count == before) {
                break; // an empty epoch: nothing more will come
            }
        }
        long end = System.nanoTime();
        TuningExplanation.Cores cores = cores(machineAtChange, processAtChange, end - changeSeen);
        log = loader.tuningLog();
        if (count < 2) {
            throw new IllegalStateException("the loader gave " + count + " batches; a run needs at least 2");
        }
        long fed = fedFrom(arrived, waited, count);
        double fedSeconds = fed < 0 ? Double.NaN : (arrived[(int) fed] - arrived[0]) / 1e9;
        long from = log.getLast().batch();
        int start = settled && count - from >= 2 ? (int) from : count / 2;
        long span = arrived[count - 1] - arrived[start];
        long wait = 0;
        for (int j = start + 1; j < count; j++) {
            wait += waited[j];
        }
        double steady = span <= 0 ? Double.NaN : (count - 1 - start) / (span / 1e9);
        double steadyWait = span <= 0 ? Double.NaN : (double) wait / span;
        TuningExplanation why = TuningExplanation.of(log, lanes, maxPrefetch, steadyWait,
                oneMoreFits(loader.inFlightBound(), log.getLast(), budgetBytes), ByteSize.format(budgetBytes), cores,
                fetchLimits);
        double passStartMillis = passStarts == 0 ? Double.NaN : passStartWait / 1e6 / passStarts;
        return new AutotuneTrial(count, settled, from, fed, fedSeconds, steady, steadyWait, passStartMillis,
                loader.pool().peakReservedBytes(), budgetBytes, log, why);
    }

    /** How busy the cores were from {@code machineBefore}/{@code processBefore}, {@code nanos} ago, to now. */
    private static TuningExplanation.Cores cores(MachineCpu.Ticks machineBefore, long processBefore, long nanos) {
        int count = Runtime.getRuntime().availableProcessors();
        double busy = MachineCpu.busyShare(machineBefore, MachineCpu.ticks());
        long processNow = ProcessCpu.nanos();
        double ours = processNow < 0 || processBefore < 0 || nanos <= 0 ? Double.NaN
                : Math.min(1, (double) (processNow - processBefore) / nanos / count);
        return new TuningExplanation.Cores(busy < 0 ? Double.NaN : busy, ours, count);
    }

    /** The first batch from which every window's wait stayed under 5%, or -1. */
    private static long fedFrom(long[] arrived, long[] waited, int count) {
        long fed = -1;
        for (int i = WINDOW; i < count; i++) { // the last window that was over 5% sets the start
            long span = arrived[i] - arrived[i - WINDOW];
            long wait = 0;
            for (int j = i - WINDOW + 1; j <= i; j++) {
                wait += waited[j];
            }
            if ((double) wait / span >= FED) {
                fed = -1;
            } else if (fed < 0) {
                fed = i;
            }
        }
        return fed;
    }

    /**
     * Whether one worker more keeps the batches in flight and the consumer's one within the
     * budget: {@code prefetch x (workers + 1)} for map-style passes; a stream's lanes all hold
     * their prefetch whatever the count, so there the bound does not grow.
     */
    static boolean oneMoreFits(InFlightBound bound, TuningDecision now, long budgetBytes) {
        if (bound.batchBytes() < 0) {
            return true;
        }
        long inFlight = bound.workers() == now.workers() ? (long) now.prefetch() * (now.workers() + 1) : bound.batches();
        return (inFlight + 1) * (double) bound.batchBytes() <= budgetBytes;
    }

    /** Sleeps {@code nanos}, parking again after an early wake-up. */
    private static void sleep(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** What the run found, in lines for a person. */
    String report() {
        StringBuilder s = new StringBuilder();
        for (TuningDecision d : decisions) {
            s.append("  ").append(d.describe()).append('\n');
        }
        TuningExplanation e = explanation;
        s.append(String.format(Locale.ROOT, "%n%s %d %s, prefetch %d%s%n", settled ? "settled on" : "ended on",
                e.workers(), e.workers() == 1 ? "worker" : "workers", e.prefetch(), settled
                        ? String.format(Locale.ROOT, " (no change since batch %d of %d)", settledFrom, batches)
                        : String.format(Locale.ROOT, " (still changing at batch %d: the run ended at %d)", settledFrom,
                                batches)));
        s.append(String.format(Locale.ROOT, "  why not %s: %s%n", e.workers() == 0 ? "fewer" : e.workers() - 1,
                e.whyNotFewer()));
        s.append(String.format(Locale.ROOT, "  why not %d: %s%n", e.workers() + 1, e.whyNotMore()));
        TuningDecision last = decisions.getLast();
        if (last.ioConcurrency() > 0) {
            int from = decisions.getFirst().ioConcurrency();
            long raised = decisions.stream().filter(d -> d.reason() == TuningDecision.Reason.WAITS_ON_IO).count();
            s.append(String.format(Locale.ROOT, "  the I/O mode: %d %s at once (from %d; %d %s while the workers"
                            + " waited on I/O)%n", last.ioConcurrency(), last.ioConcurrency() == 1 ? "fetch" : "fetches",
                    from, raised, raised == 1 ? "raise" : "raises"));
        }
        e.fetches().ifPresent(f -> {
            s.append(String.format(Locale.ROOT, "  why not fewer fetches: %s%n", f.whyNotFewer()));
            s.append(String.format(Locale.ROOT, "  why not more fetches: %s%n", f.whyNotMore()));
        });
        s.append(fedBatch < 0
                ? "the consumer's wait never stayed under 5% of a " + WINDOW + "-batch window\n"
                : String.format(Locale.ROOT, "the consumer's wait stayed under 5%% from batch %d, %.2f s in%n",
                        fedBatch, fedSeconds));
        s.append(String.format(Locale.ROOT, "%s: %.1f batches/s, the consumer waiting %.1f%% of the time%n",
                settled ? "settled" : "second half", steadyPerSecond, 100 * steadyWaitShare));
        if (!Double.isNaN(passStartMillis)) {
            s.append(String.format(Locale.ROOT, "each epoch's first batch waited %.0f ms on average (the pass starting,"
                    + " left out of the waits above, as the tuner leaves it out)%n", passStartMillis));
        }
        s.append(String.format(Locale.ROOT, "pool peak %s of a %s budget%s%n", ByteSize.format(peakPoolBytes),
                ByteSize.format(budgetBytes), peakPoolBytes > budgetBytes ? " (OVER)" : ""));
        return s.toString();
    }
}
