package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.cli.TuningExplanation.Cores;
import dev.stoker.loader.TuningDecision;
import dev.stoker.loader.TuningDecision.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The words for the count the tuner settled on, from logs written out here: every branch, no timing. */
class TuningExplanationTest {
    private static final Cores QUIET = new Cores(0.4, 0.3, 4);
    private static final Cores BUSY_WITH_OTHERS = new Cores(0.99, 0.25, 4); // three cores' worth not ours

    private static TuningDecision start() {
        return new TuningDecision(0, 1, 1, Reason.START, Double.NaN);
    }

    private static TuningDecision d(long batch, int workers, int prefetch, Reason reason, double wait) {
        return new TuningDecision(batch, workers, prefetch, reason, wait);
    }

    private static TuningExplanation explain(List<TuningDecision> log, double wait, boolean oneMoreFits, Cores cores) {
        return TuningExplanation.of(log, 4, 4, wait, oneMoreFits, "64.0 MiB", cores);
    }

    @Test
    void aFedCountNamesTheWaitOneFewerHadAndNoGainFromOneMore() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.62), d(16, 3, 1, Reason.CONSUMER_WAITS, 0.31));
        TuningExplanation e = explain(log, 0.004, true, QUIET);

        assertThat(e.workers()).isEqualTo(3);
        assertThat(e.prefetch()).isEqualTo(1);
        assertThat(e.whyNotFewer()).isEqualTo("with 2 workers the consumer waited 31.0% of the time (batch 16)");
        assertThat(e.whyNotMore()).isEqualTo("no gain: with 3 the consumer waits only 0.4% of the time, so the step"
                + " is the limit and a worker more would wait too");
    }

    @Test
    void fromZeroTheWaitOfTheLoopsOwnThreadIsTheReasonForTheFirstWorker() {
        var log = List.of(new TuningDecision(0, 0, 1, Reason.START, Double.NaN), d(6, 1, 1, Reason.CONSUMER_WAITS, 0.97));
        TuningExplanation e = explain(log, 0.002, true, QUIET);
        assertThat(e.whyNotFewer()).isEqualTo("with 0 workers the consumer waited 97.0% of the time (batch 6)");

        TuningExplanation none = explain(List.of(new TuningDecision(0, 0, 1, Reason.START, Double.NaN)), 0.0, true,
                QUIET);
        assertThat(none.whyNotFewer()).isEqualTo("there are none: the loop's own thread makes the batches");
        assertThat(none.whyNotMore()).startsWith("no gain: with 0 the consumer waits only 0.0%");
    }

    @Test
    void aStepDownThatMadeTheConsumerWaitIsTheReasonNotToGoLower() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.5), d(40, 1, 1, Reason.CONSUMER_IDLE, 0.002),
                d(48, 2, 1, Reason.CONSUMER_WAITS, 0.45));
        TuningExplanation e = explain(log, 0.003, true, QUIET);

        assertThat(e.whyNotFewer()).isEqualTo("with 1 worker the consumer waited 45.0% of the time (batch 48), after"
                + " a step down from 2 to see whether it could do with fewer");
    }

    @Test
    void aWorkerGivenBackForAQuietConsumerIsSaid() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.5), d(16, 3, 1, Reason.CONSUMER_WAITS, 0.2),
                d(60, 2, 1, Reason.CONSUMER_IDLE, 0.001));
        TuningExplanation e = explain(log, 0.02, true, QUIET);

        assertThat(e.workers()).isEqualTo(2);
        assertThat(e.whyNotFewer()).startsWith("with 1 worker the consumer waited 50.0%");
        assertThat(e.whyNotMore()).endsWith("(it had 3 and gave one back at batch 60, once the consumer had waited"
                + " under 1.0% for 3 windows)");
    }

    @Test
    void aWaitingConsumerWithEveryLaneInUseSaysSo() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.9), d(16, 3, 1, Reason.CONSUMER_WAITS, 0.8),
                d(24, 4, 1, Reason.CONSUMER_WAITS, 0.7), d(32, 4, 2, Reason.CONSUMER_WAITS, 0.6),
                d(40, 4, 3, Reason.CONSUMER_WAITS, 0.6), d(48, 4, 4, Reason.CONSUMER_WAITS, 0.6));
        TuningExplanation e = explain(log, 0.55, true, QUIET);

        assertThat(e.whyNotMore()).isEqualTo("the consumer still waits 55.0%, but every lane is in use (4 worker"
                + " threads, each 4 batches ahead, the most; --max-workers sets them)");
    }

    @Test
    void busyCoresAreTheReasonWhenOthersKeepThemBusyNowOrTookAWorker() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.9));
        assertThat(explain(log, 0.4, true, BUSY_WITH_OTHERS).whyNotMore()).isEqualTo("the consumer still waits 40.0%,"
                + " but the machine's cores are busy with other processes (99% busy, 3.0 of 4 cores' worth other"
                + " processes): the tuner adds no worker while they are");

        var tookOne = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.9), d(16, 3, 1, Reason.CONSUMER_WAITS, 0.7),
                d(24, 2, 1, Reason.CPU_SATURATED, 0.6), d(32, 2, 2, Reason.CONSUMER_WAITS, 0.5));
        assertThat(explain(tookOne, 0.4, true, QUIET).whyNotMore()).isEqualTo("the consumer still waits 40.0%, but"
                + " the machine's cores were busy with other processes (batch 24, down to 2): the tuner adds no"
                + " worker while they are");
    }

    @Test
    void theBudgetIsTheReasonWhenOneMoreWouldNotFit() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.9));
        assertThat(explain(log, 0.3, false, QUIET).whyNotMore()).isEqualTo("the consumer still waits 30.0%, but 3"
                + " workers with prefetch 1 would hold more batches than the memory budget (64.0 MiB) allows");
        var cut = List.of(start(), d(8, 2, 2, Reason.CONSUMER_WAITS, 0.9), d(12, 2, 1, Reason.MEMORY_BUDGET, 0.9),
                d(16, 1, 1, Reason.MEMORY_BUDGET, 0.9));
        assertThat(explain(cut, 0.3, true, QUIET).whyNotMore()).contains("memory budget");
    }

    @Test
    void aRunTooShortToAddOneSaysSoAndOneWorkerIsWhereItStarts() {
        TuningExplanation e = explain(List.of(start()), 0.3, true, QUIET);

        assertThat(e.workers()).isEqualTo(1);
        assertThat(e.whyNotFewer()).isEqualTo("one worker is where the tuner starts and the fewest it runs");
        assertThat(e.whyNotMore()).isEqualTo("the consumer still waits 30.0%, but the run ended before the tuner added"
                + " one (raise --batches or --settle)");
    }

    @Test
    void aCountReachedWithoutAWaitingStepSaysWhatTheWaitIsNow() {
        // replayed or given decisions: no change records a wait at one fewer
        var log = List.of(start(), d(8, 3, 1, Reason.GIVEN, Double.NaN));
        assertThat(explain(log, 0.03, true, QUIET).whyNotFewer()).isEqualTo("the consumer still waits 3.0% of the"
                + " time with 3, more than the 1.0% under which the tuner gives a worker back");
        assertThat(explain(log, 0.001, true, QUIET).whyNotFewer()).startsWith("not tried yet: the consumer waits 0.1%"
                + " with 3");
    }

    private static TuningDecision io(long batch, int workers, Reason reason, double wait, int fetches) {
        return new TuningDecision(batch, workers, 1, reason, wait, fetches);
    }

    private static TuningExplanation.Fetches fetches(List<TuningDecision> log, double wait, int most, int batchSize) {
        return TuningExplanation.of(log, 4, 4, wait, true, "64.0 MiB", QUIET,
                new TuningExplanation.FetchLimits(most, batchSize)).fetches().orElseThrow();
    }

    @Test
    void withoutTheIoModeThereIsNoFetchCountToExplain() {
        var log = List.of(start(), d(8, 2, 1, Reason.CONSUMER_WAITS, 0.62));
        assertThat(explain(log, 0.004, true, QUIET).fetches()).isEmpty();
    }

    @Test
    void aFetchCountRaisedForWaitsOnIoNamesTheWaitWithHalfAsMany() {
        var log = List.of(io(0, 1, Reason.START, Double.NaN, 1), io(8, 1, Reason.WAITS_ON_IO, 0.41, 2),
                io(16, 1, Reason.WAITS_ON_IO, 0.2, 4));
        TuningExplanation.Fetches f = fetches(log, 0.004, 256, 32);

        assertThat(f.count()).isEqualTo(4);
        assertThat(f.whyNotFewer()).isEqualTo("with 2 at once the consumer waited 20.0% of the time while the"
                + " workers waited on I/O (batch 16)");
        assertThat(f.whyNotMore()).isEqualTo("no gain: the consumer waits only 0.4% of the time, so the step is the"
                + " limit and more fetches at once would wait too");
    }

    @Test
    void aFetchCountAtItsCeilingNamesTheCeiling() {
        var perWorker = List.of(io(0, 2, Reason.START, Double.NaN, 2), io(8, 2, Reason.WAITS_ON_IO, 0.5, 4),
                io(16, 2, Reason.WAITS_ON_IO, 0.3, 8));
        assertThat(fetches(perWorker, 0.2, 256, 4).whyNotMore()).isEqualTo("the consumer still waits 20.0%, but 8 is"
                + " a batch's 4 samples for each of the 2 workers: a worker fetches only the samples of the batch it makes");
        assertThat(fetches(perWorker, 0.2, 8, 32).whyNotMore()).isEqualTo("the consumer still waits 20.0%, but 8 is"
                + " the loader's ioConcurrency, the most it fetches at once");
    }

    @Test
    void aWaitTheWorkersComputedThroughIsAnsweredWithWorkersNotFetches() {
        var log = List.of(io(0, 1, Reason.START, Double.NaN, 1), io(8, 1, Reason.WAITS_ON_IO, 0.5, 2),
                io(16, 2, Reason.CONSUMER_WAITS, 0.3, 2));
        assertThat(fetches(log, 0.2, 256, 32).whyNotMore()).isEqualTo("the consumer still waits 20.0%, but the workers"
                + " were computing, not waiting on I/O (batch 16): a wait the tuner answers with workers or prefetch,"
                + " not fetches");
        assertThat(fetches(List.of(io(0, 1, Reason.START, Double.NaN, 2)), 0.2, 256, 32).whyNotMore())
                .endsWith("the run ended before the tuner raised it (raise --batches or --settle)");
    }

    @Test
    void aFetchCountGivenBackSaysSoAndWhenItWouldGiveMore() {
        var log = List.of(io(0, 1, Reason.START, Double.NaN, 1), io(8, 1, Reason.WAITS_ON_IO, 0.5, 2),
                io(16, 1, Reason.WAITS_ON_IO, 0.5, 4), io(64, 1, Reason.CONSUMER_IDLE, 0.002, 3));
        assertThat(fetches(log, 0.004, 256, 32).whyNotFewer()).isEqualTo("the tuner came down to 3 at batch 64, the"
                + " consumer having waited under 1.0% for 3 windows; the consumer waits 0.4%, so it would give some"
                + " back after 3 quiet windows, unless a step down from here made the consumer wait before");
        assertThat(fetches(List.of(io(0, 1, Reason.START, Double.NaN, 1)), 0.3, 256, 32).whyNotFewer())
                .isEqualTo("one at a time is the fewest");
        assertThat(fetches(List.of(io(0, 1, Reason.START, Double.NaN, 8)), 0.03, 256, 32).whyNotFewer())
                .isEqualTo("8 is where the tuner started, and the consumer still waits 3.0% of the time, more than"
                        + " the 1.0% under which it gives fetches back");
    }
}
