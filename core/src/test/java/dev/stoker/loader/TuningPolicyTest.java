package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.TuningDecision.Reason;
import dev.stoker.loader.TuningPolicy.Change;
import dev.stoker.loader.TuningPolicy.Hold;
import dev.stoker.loader.TuningPolicy.Move;
import dev.stoker.loader.TuningPolicy.Settings;
import dev.stoker.loader.TuningPolicy.Signals;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The autotuner's policy on synthetic signals: no clock, no threads. */
class TuningPolicyTest {
    private static final long MB = 1 << 20;
    private static final double UNKNOWN = Double.NaN;

    private static TuningPolicy policy(int maxWorkers, long budget) {
        return new TuningPolicy(maxWorkers, 4, budget, 8, (w, p) -> w * p);
    }

    private static Signals waits(double share) {
        return new Signals(share, UNKNOWN, UNKNOWN, MB);
    }

    private static Settings apply(Settings now, Move move) {
        return move instanceof Change(Settings to, Reason reason) ? to : now;
    }

    @Test
    void aWaitingConsumerGetsWorkersFirstThenPrefetch() {
        TuningPolicy p = policy(3, 1L << 40);
        Settings s = new Settings(1, 1);
        assertThat(p.next(s, waits(0.5))).isEqualTo(new Change(new Settings(2, 1), Reason.CONSUMER_WAITS));
        s = new Settings(3, 1);
        assertThat(p.next(s, waits(0.5))).isEqualTo(new Change(new Settings(3, 2), Reason.CONSUMER_WAITS));
        s = new Settings(3, 4);
        assertThat(p.next(s, waits(0.5))).isInstanceOf(Hold.class); // nothing left to add
    }

    @Test
    void fromZeroAWorkerComesEvenWhenOthersKeepTheCoresBusyAndNoneIsGivenBackToZero() {
        TuningPolicy p = policy(4, 1L << 40);
        Signals othersBusy = new Signals(0.9, 0.99, 0.10, MB); // the consumer's thread makes every batch
        assertThat(p.next(new Settings(0, 1), othersBusy)).isEqualTo(new Change(new Settings(1, 1),
                Reason.CONSUMER_WAITS));
        Settings s = new Settings(1, 1);
        for (int i = 0; i < 10; i++) {
            s = apply(s, p.next(s, waits(0)));
        }
        assertThat(s.workers()).isEqualTo(1); // idleness steps down to one worker, never back to the consumer's thread
    }

    @Test
    void waitingUnderFivePercentChangesNothingAndIdlenessStepsDownAfterThreeQuietWindows() {
        TuningPolicy p = policy(4, 1L << 40);
        Settings s = new Settings(3, 2);
        assertThat(p.next(s, waits(0.03))).isInstanceOf(Hold.class); // between the marks: keep
        assertThat(p.next(s, waits(0.0))).isInstanceOf(Hold.class);
        assertThat(p.next(s, waits(0.0))).isInstanceOf(Hold.class);
        assertThat(p.next(s, waits(0.0))).isEqualTo(new Change(new Settings(2, 2), Reason.CONSUMER_IDLE));
    }

    @Test
    void aStepDownThatMadeTheConsumerWaitIsNotTakenAgain() {
        TuningPolicy p = policy(4, 1L << 40);
        Settings s = new Settings(3, 1);
        for (int i = 0; i < 3; i++) {
            s = apply(s, p.next(s, waits(0)));
        }
        assertThat(s).isEqualTo(new Settings(2, 1));
        s = apply(s, p.next(s, waits(0.2))); // two were too few
        assertThat(s).isEqualTo(new Settings(3, 1));
        assertThat(p.floor()).isEqualTo(3);
        for (int i = 0; i < 10; i++) {
            s = apply(s, p.next(s, waits(0)));
        }
        assertThat(s).isEqualTo(new Settings(3, 1));
    }

    @Test
    void coresBusyWithOtherProcessesTakeAWorkerAwayAndAddNone() {
        TuningPolicy p = policy(8, 1L << 40);
        Signals othersBusy = new Signals(0.5, 0.99, 0.30, MB); // 69% of the machine is someone else's
        assertThat(p.next(new Settings(4, 1), othersBusy)).isEqualTo(new Change(new Settings(3, 1),
                Reason.CPU_SATURATED));
        assertThat(p.next(new Settings(1, 1), othersBusy)).isEqualTo(new Change(new Settings(1, 2),
                Reason.CONSUMER_WAITS)); // one worker is the least: prefetch may still help
        Signals ourselves = new Signals(0.5, 0.99, 0.97, MB); // the machine is busy with us
        assertThat(policy(8, 1L << 40).next(new Settings(4, 1), ourselves)).isEqualTo(new Change(new Settings(5, 1),
                Reason.CONSUMER_WAITS));
    }

    @Test
    void afterBusyCoresTookAWorkerNoneIsAddedForAWhile() {
        TuningPolicy p = policy(8, 1L << 40);
        Settings s = apply(new Settings(4, 1), p.next(new Settings(4, 1), new Signals(0.5, 0.99, 0.3, MB)));
        assertThat(s).isEqualTo(new Settings(3, 1));
        for (int i = 0; i < TuningPolicy.COOL_DOWN_WINDOWS; i++) { // waiting, cores free again: prefetch only
            s = apply(s, p.next(s, waits(0.5)));
            assertThat(s.workers()).isEqualTo(3);
        }
        assertThat(s.prefetch()).isEqualTo(4);
        assertThat(p.next(s, waits(0.5))).isEqualTo(new Change(new Settings(4, 4), Reason.CONSUMER_WAITS));
    }

    @Test
    void theMemoryBudgetIsNeverPassedWhateverTheSignals() {
        SplittableRandom r = new SplittableRandom(22);
        for (int trial = 0; trial < 200; trial++) {
            long batch = (1 + r.nextInt(64)) * MB;
            long budget = batch * (2 + r.nextInt(20));
            TuningPolicy p = policy(1 + r.nextInt(8), budget);
            Settings s = new Settings(1, 1);
            for (int window = 0; window < 60; window++) {
                Signals sig = new Signals(r.nextDouble() < 0.7 ? r.nextDouble() : 0, r.nextDouble(),
                        r.nextDouble() * 0.5, batch);
                s = apply(s, p.next(s, sig));
                long inFlight = ((long) s.workers() * s.prefetch() + 1) * batch;
                assertThat(inFlight).as("trial %d window %d: %s", trial, window, s).isLessThanOrEqualTo(budget);
            }
        }
    }

    @Test
    void settingsOverTheBudgetStepDownPrefetchFirst() {
        TuningPolicy p = policy(8, 7 * MB);
        assertThat(p.next(new Settings(3, 3), waits(0.9))).isEqualTo(new Change(new Settings(3, 2),
                Reason.MEMORY_BUDGET));
        assertThat(p.next(new Settings(8, 1), waits(0.9))).isEqualTo(new Change(new Settings(7, 1),
                Reason.MEMORY_BUDGET));
        assertThat(p.next(new Settings(6, 1), waits(0.9))).isInstanceOf(Hold.class); // 6 + 1 fit; 7 + 1 would not
    }

    @Test
    void anUnknownBatchSizeLetsWorkersGrow() {
        TuningPolicy p = policy(2, MB);
        assertThat(p.next(new Settings(1, 1), new Signals(0.5, UNKNOWN, UNKNOWN, -1)))
                .isEqualTo(new Change(new Settings(2, 1), Reason.CONSUMER_WAITS));
    }
}
