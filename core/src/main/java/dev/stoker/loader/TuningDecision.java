package dev.stoker.loader;

import java.util.Locale;

/**
 * One change the autotuner made: from batch {@code batch} on (batches taken by the consumer
 * since the loader was built, all epochs), {@code workers} make batches at once, each lane
 * keeps up to {@code prefetch} ahead and, in the I/O mode, {@code ioConcurrency} samples are
 * fetched at once. A loader's list of them ({@link DataLoader#tuningLog()})
 * replays the run's settings exactly ({@link Autotune#replaying}); the batches are the same
 * under any list.
 *
 * @param batch     batches taken when the change was made
 * @param workers   workers making batches at once from then on; 0: the consumer's thread makes
 *                  each batch when it asks (a map-style loader started at 0, {@link Autotune#startingAt})
 * @param prefetch  batches per lane made ahead from then on
 * @param reason    why
 * @param waitShare the share of the last window the consumer spent waiting for data (0 to 1;
 *                  NaN where no window was measured: the start, a replay)
 * @param ioConcurrency the I/O mode's fetches at once from then on; 0 without the I/O mode (or,
 *                  given to a replay, for "as it is")
 */
public record TuningDecision(long batch, int workers, int prefetch, Reason reason, double waitShare,
                             int ioConcurrency) {
    /** Why the autotuner changed its settings. */
    public enum Reason {
        /** The settings it starts with. */
        START,
        /** The consumer waited for data: more workers, or, with all of them busy, more prefetch. */
        CONSUMER_WAITS,
        /**
         * The consumer waited while the workers were blocked on I/O rather than computing: more
         * samples fetched at once (the I/O mode).
         */
        WAITS_ON_IO,
        /** The consumer has not waited for a while: fewer fetches at once in the I/O mode, else one worker less. */
        CONSUMER_IDLE,
        /** The machine's cores are busy with other processes: one worker less. */
        CPU_SATURATED,
        /** The batches in flight would pass the memory budget: less prefetch, or fewer workers. */
        MEMORY_BUDGET,
        /** Given, not decided (a replayed or injected decision). */
        GIVEN
    }

    public TuningDecision {
        if (batch < 0 || workers < 0 || prefetch < 1 || reason == null || ioConcurrency < 0) {
            throw new IllegalArgumentException("a tuning decision needs batch >= 0, workers >= 0, prefetch >= 1,"
                    + " ioConcurrency >= 0 and a reason, not batch " + batch + ", " + workers + " workers, prefetch "
                    + prefetch + ", ioConcurrency " + ioConcurrency);
        }
    }

    /** A decision without the I/O mode. */
    public TuningDecision(long batch, int workers, int prefetch, Reason reason, double waitShare) {
        this(batch, workers, prefetch, reason, waitShare, 0);
    }

    /** A decision given rather than made: for replaying a run or injecting changes in a test. */
    public static TuningDecision given(long batch, int workers, int prefetch) {
        return new TuningDecision(batch, workers, prefetch, Reason.GIVEN, Double.NaN);
    }

    /** The same, with {@code ioConcurrency} samples fetched at once in the I/O mode (0: as they are). */
    public static TuningDecision given(long batch, int workers, int prefetch, int ioConcurrency) {
        return new TuningDecision(batch, workers, prefetch, Reason.GIVEN, Double.NaN, ioConcurrency);
    }

    /** The decision as the loader logs it. */
    public String describe() {
        String why = switch (reason) {
            case START -> "start";
            case CONSUMER_WAITS -> String.format(Locale.ROOT, "the consumer waited %.0f%% of the time", 100 * waitShare);
            case WAITS_ON_IO -> String.format(Locale.ROOT, "the consumer waited %.0f%% of the time, the workers on I/O",
                    100 * waitShare);
            case CONSUMER_IDLE -> String.format(Locale.ROOT, "the consumer no longer waits (%.1f%%)", 100 * waitShare);
            case CPU_SATURATED -> "the machine's cores are busy with other processes";
            case MEMORY_BUDGET -> "the batches in flight would pass the memory budget";
            case GIVEN -> "given";
        };
        String who = workers == 0 ? "0 workers (the consumer's thread)" : workers + (workers == 1 ? " worker" : " workers");
        String io = ioConcurrency == 0 ? "" : ", " + ioConcurrency + (ioConcurrency == 1 ? " fetch" : " fetches") + " at once";
        return "from batch " + batch + ": " + who + ", prefetch " + prefetch + io + " (" + why + ")";
    }
}
