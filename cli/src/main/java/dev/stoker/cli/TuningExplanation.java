package dev.stoker.cli;

import dev.stoker.loader.TuningDecision;
import dev.stoker.loader.TuningDecision.Reason;
import dev.stoker.loader.TuningPolicy;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Why the autotuner's worker count is the one it settled on, in two sentences: why not one fewer
 * (the consumer waited with one fewer, from the change that added the last worker) and why not one
 * more (no gain: the consumer is fed; every lane in use; the cores busy with other processes; the
 * memory budget; or the run ended first). Read from the controller's own log and what the run
 * measured once settled, nothing else, so a test gives it a log and checks the words. In the I/O
 * mode, the same for the samples fetched at once ({@link Fetches}).
 *
 * @param workers    the count settled on
 * @param prefetch   the prefetch settled on
 * @param whyNotFewer why not {@code workers - 1}
 * @param whyNotMore  why not {@code workers + 1}
 * @param fetches    why the I/O mode's fetch count, or empty without the I/O mode
 */
record TuningExplanation(int workers, int prefetch, String whyNotFewer, String whyNotMore, Optional<Fetches> fetches) {

    /**
     * Why the I/O mode fetches {@code count} samples at once: why not fewer (what made the tuner
     * raise it, or keeps it from giving some back), why not more (the consumer is fed; the count
     * is already all that many workers can run, or the loader's limit; or the workers computed
     * rather than waited on I/O, which workers answer, not fetches).
     *
     * @param count       the fetches at once settled on
     * @param whyNotFewer why not fewer
     * @param whyNotMore  why not more
     */
    record Fetches(int count, String whyNotFewer, String whyNotMore) {}

    /**
     * What bounds the I/O mode's count: the loader's {@code ioConcurrency} and a batch's samples
     * per worker (a worker fans out only the samples of the batch it makes).
     *
     * @param most      the loader's {@code ioConcurrency}; 0 without the I/O mode
     * @param batchSize samples per batch
     */
    record FetchLimits(int most, int batchSize) {
        static final FetchLimits NONE = new FetchLimits(0, 1);

        int ceiling(int workers) {
            return (int) Math.min(most, (long) Math.max(1, workers) * batchSize);
        }
    }

    /**
     * How busy the machine's cores were while the run was settled, as the controller reads them.
     *
     * @param machineBusy  share of all the cores busy (0 to 1), NaN unknown
     * @param processShare share of all the cores this process used (0 to 1), NaN unknown
     * @param count        the machine's cores
     */
    record Cores(double machineBusy, double processShare, int count) {
        static final Cores UNKNOWN = new Cores(Double.NaN, Double.NaN, 1);

        /** The controller's test: the machine saturated with at least a core's worth not ours. */
        boolean busyWithOthers() {
            return machineBusy >= TuningPolicy.SATURATED && machineBusy - processShare >= 1.0 / count;
        }

        String describe() {
            return String.format(Locale.ROOT, "%.0f%% busy, %.1f of %d cores' worth other processes", 100 * machineBusy,
                    (machineBusy - processShare) * count, count);
        }
    }

    /**
     * What the controller ended on.
     *
     * @param log          the loader's tuning log, its start first
     * @param lanes        the worker threads: the most workers it may run
     * @param maxPrefetch  the most prefetch per lane
     * @param waitShare    the share of the settled run the consumer spent waiting (0 to 1)
     * @param oneMoreFits  whether one worker more keeps the batches in flight within the budget
     * @param budgetText   the budget, as a person reads it
     * @param cores        how busy the cores were while settled
     */
    static TuningExplanation of(List<TuningDecision> log, int lanes, int maxPrefetch, double waitShare,
                                boolean oneMoreFits, String budgetText, Cores cores) {
        return of(log, lanes, maxPrefetch, waitShare, oneMoreFits, budgetText, cores, FetchLimits.NONE);
    }

    /** As {@link #of(List, int, int, double, boolean, String, Cores)}, with the I/O mode's count explained. */
    static TuningExplanation of(List<TuningDecision> log, int lanes, int maxPrefetch, double waitShare,
                                boolean oneMoreFits, String budgetText, Cores cores, FetchLimits limits) {
        TuningDecision last = log.getLast();
        int w = last.workers();
        Optional<Fetches> fetches = last.ioConcurrency() > 0
                ? Optional.of(new Fetches(last.ioConcurrency(), fewerFetches(log, waitShare),
                        moreFetches(log, waitShare, limits)))
                : Optional.empty();
        return new TuningExplanation(w, last.prefetch(), whyNotFewer(log, w, waitShare),
                whyNotMore(log, w, last.prefetch(), lanes, maxPrefetch, waitShare, oneMoreFits, budgetText, cores),
                fetches);
    }

    /** Why not fewer fetches at once than the last decision's. */
    private static String fewerFetches(List<TuningDecision> log, double waitShare) {
        int io = log.getLast().ioConcurrency();
        if (io == 1) {
            return "one at a time is the fewest";
        }
        int at = lastFetchChange(log);
        if (at > 0 && log.get(at).reason() == Reason.WAITS_ON_IO) {
            TuningDecision d = log.get(at);
            TuningDecision before = log.get(at - 1);
            boolean tried = before.reason() == Reason.CONSUMER_IDLE && at >= 2 && log.get(at - 2).ioConcurrency() == io;
            return String.format(Locale.ROOT, "with %d at once the consumer waited %s of the time while the workers"
                            + " waited on I/O (batch %d)%s", before.ioConcurrency(), percent(d.waitShare()), d.batch(),
                    tried ? ", after a step down from " + io + " to see whether it could do with fewer" : "");
        }
        String how = at < 0 ? String.format(Locale.ROOT, "%d is where the tuner started", io)
                : String.format(Locale.ROOT, "the tuner came down to %d at batch %d, %s", io, log.get(at).batch(),
                        whyDown(log.get(at)));
        if (waitShare >= TuningPolicy.IDLE) {
            return String.format(Locale.ROOT, "%s, and the consumer still waits %s of the time, more than the %s under"
                    + " which it gives fetches back", how, percent(waitShare), percent(TuningPolicy.IDLE));
        }
        return String.format(Locale.ROOT, "%s; the consumer waits %s, so it would give some back after %d quiet"
                + " windows, unless a step down from here made the consumer wait before", how, percent(waitShare),
                TuningPolicy.QUIET_WINDOWS);
    }

    /** Why a decision lowered the fetches at once: given back, or cut to what fewer workers run. */
    private static String whyDown(TuningDecision d) {
        return switch (d.reason()) {
            case CONSUMER_IDLE -> String.format(Locale.ROOT, "the consumer having waited under %s for %d windows",
                    percent(TuningPolicy.IDLE), TuningPolicy.QUIET_WINDOWS);
            case CPU_SATURATED -> "with a worker fewer, the cores busy with other processes";
            case MEMORY_BUDGET -> "with a worker fewer, for the memory budget";
            default -> d.describe();
        };
    }

    /** Why not more fetches at once than the last decision's. */
    private static String moreFetches(List<TuningDecision> log, double waitShare, FetchLimits limits) {
        TuningDecision last = log.getLast();
        int io = last.ioConcurrency();
        if (waitShare < TuningPolicy.WAITS) {
            return String.format(Locale.ROOT, "no gain: the consumer waits only %s of the time, so the step is the"
                    + " limit and more fetches at once would wait too", percent(waitShare));
        }
        String still = String.format(Locale.ROOT, "the consumer still waits %s, but ", percent(waitShare));
        if (limits.most() > 0 && io >= limits.ceiling(last.workers())) {
            return still + (io >= limits.most()
                    ? String.format(Locale.ROOT, "%d is the loader's ioConcurrency, the most it fetches at once", io)
                    : String.format(Locale.ROOT, "%d is a batch's %d samples for each of the %d %s: a worker fetches"
                            + " only the samples of the batch it makes", io, limits.batchSize(), last.workers(),
                            workersWord(last.workers())));
        }
        int at = lastFetchChange(log);
        for (int i = log.size() - 1; i > Math.max(at, 0); i--) {
            if (log.get(i).reason() == Reason.CONSUMER_WAITS) {
                return still + String.format(Locale.ROOT, "the workers were computing, not waiting on I/O (batch %d):"
                        + " a wait the tuner answers with workers or prefetch, not fetches", log.get(i).batch());
            }
        }
        return still + "the run ended before the tuner raised it (raise --batches or --settle)";
    }

    /** The index of the last decision that changed the fetches at once, or -1 when none did. */
    private static int lastFetchChange(List<TuningDecision> log) {
        for (int i = log.size() - 1; i > 0; i--) {
            if (log.get(i).ioConcurrency() != log.get(i - 1).ioConcurrency()) {
                return i;
            }
        }
        return -1;
    }

    private static String whyNotFewer(List<TuningDecision> log, int w, double waitShare) {
        if (w == 0) {
            return "there are none: the loop's own thread makes the batches";
        }
        // the last change that brought the count from w - 1 up to w, because the consumer waited
        for (int i = log.size() - 1; i > 0; i--) {
            TuningDecision d = log.get(i);
            if (d.reason() == Reason.CONSUMER_WAITS && d.workers() == w && log.get(i - 1).workers() == w - 1) {
                boolean tried = triedFewerAndCameBack(log, i, w);
                return String.format(Locale.ROOT, "with %d %s the consumer waited %s of the time (batch %d)%s", w - 1,
                        workersWord(w - 1), percent(d.waitShare()), d.batch(),
                        tried ? ", after a step down from " + w + " to see whether it could do with fewer" : "");
            }
        }
        if (w == 1) {
            return log.getFirst().workers() == 1
                    ? "one worker is where the tuner starts and the fewest it runs"
                    : "one worker is the fewest the tuner runs";
        }
        if (waitShare >= TuningPolicy.IDLE) {
            return String.format(Locale.ROOT, "the consumer still waits %s of the time with %d, more than the %s under"
                    + " which the tuner gives a worker back", percent(waitShare), w, percent(TuningPolicy.IDLE));
        }
        return String.format(Locale.ROOT, "not tried yet: the consumer waits %s with %d, so the tuner would give one"
                + " back after %d quiet windows; a longer run (--batches, --settle) sees whether it can",
                percent(waitShare), w, TuningPolicy.QUIET_WINDOWS);
    }

    /** Whether the change at {@code i} (to {@code w}) undid a step down from {@code w} for a quiet consumer. */
    private static boolean triedFewerAndCameBack(List<TuningDecision> log, int i, int w) {
        TuningDecision before = log.get(i - 1);
        return before.reason() == Reason.CONSUMER_IDLE && i >= 2 && log.get(i - 2).workers() == w;
    }

    private static String whyNotMore(List<TuningDecision> log, int w, int p, int lanes, int maxPrefetch,
                                     double waitShare, boolean oneMoreFits, String budgetText, Cores cores) {
        if (waitShare < TuningPolicy.WAITS) {
            String gaveBack = gaveBack(log, w);
            return String.format(Locale.ROOT, "no gain: with %d the consumer waits only %s of the time, so the step"
                    + " is the limit and a worker more would wait too%s", w, percent(waitShare), gaveBack);
        }
        String still = String.format(Locale.ROOT, "the consumer still waits %s, but ", percent(waitShare));
        if (w >= lanes) {
            return still + String.format(Locale.ROOT, "every lane is in use (%d worker %s%s; --max-workers sets"
                    + " them)", lanes, lanes == 1 ? "thread" : "threads", p >= maxPrefetch
                    ? ", each " + maxPrefetch + " batches ahead, the most" : "");
        }
        if (cores.busyWithOthers()) {
            return still + "the machine's cores are busy with other processes (" + cores.describe() + "): the tuner"
                    + " adds no worker while they are";
        }
        TuningDecision lastCount = lastCountChange(log);
        if (lastCount != null && lastCount.reason() == Reason.CPU_SATURATED) {
            return still + String.format(Locale.ROOT, "the machine's cores were busy with other processes (batch"
                    + " %d, down to %d): the tuner adds no worker while they are", lastCount.batch(), w);
        }
        if (!oneMoreFits || lastCount != null && lastCount.reason() == Reason.MEMORY_BUDGET) {
            return still + String.format(Locale.ROOT, "%d workers with prefetch %d would hold more batches than the"
                    + " memory budget (%s) allows", w + 1, p, budgetText);
        }
        return still + "the run ended before the tuner added one (raise --batches or --settle)";
    }

    /** The last decision that changed the worker count, or null when none did. */
    private static TuningDecision lastCountChange(List<TuningDecision> log) {
        for (int i = log.size() - 1; i > 0; i--) {
            if (log.get(i).workers() != log.get(i - 1).workers()) {
                return log.get(i);
            }
        }
        return null;
    }

    /** ", after it had w + 1 and gave one back ..." when it did. */
    private static String gaveBack(List<TuningDecision> log, int w) {
        TuningDecision last = log.getLast();
        if (last.reason() == Reason.CONSUMER_IDLE && log.size() >= 2 && log.get(log.size() - 2).workers() == w + 1) {
            return String.format(Locale.ROOT, " (it had %d and gave one back at batch %d, once the consumer had"
                    + " waited under %s for %d windows)", w + 1, last.batch(), percent(TuningPolicy.IDLE),
                    TuningPolicy.QUIET_WINDOWS);
        }
        return "";
    }

    private static String workersWord(int n) {
        return n == 1 ? "worker" : "workers";
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }
}
