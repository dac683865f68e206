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

    /** A policy in the I/O mode: 8 lanes, up to {@code maxIo} fetches at once, batches of 16. */
    private static TuningPolicy ioPolicy(int maxIo, long budget) {
        return new TuningPolicy(8, 4, budget, 8, (w, p) -> w * p, maxIo, 16);
    }

    /** The consumer waits {@code share}; the workers used {@code cpu} CPU-seconds per second of loading. */
    private static Signals waits(double share, double cpu) {
        return new Signals(share, UNKNOWN, UNKNOWN, MB, cpu);
    }

    @Test
    void blockedWorkersGetTwiceTheFetchesAtOnceUpToABatchPerWorkerThenAWorker() {
        TuningPolicy p = ioPolicy(256, 1L << 40);
        Settings s = new Settings(1, 1, 1);
        for (int want : new int[] {2, 4, 8, 16}) { // blocked: 0.05 CPU-s per s of loading
            Move m = p.next(s, waits(0.5, 0.05));
            assertThat(m).isEqualTo(new Change(new Settings(1, 1, want), Reason.WAITS_ON_IO));
            s = apply(s, m);
        }
        // 16 is every sample of the one batch a worker makes: more fetches could never run, so a worker
        assertThat(p.next(s, waits(0.5, 0.05))).isEqualTo(new Change(new Settings(2, 1, 16), Reason.CONSUMER_WAITS));
        assertThat(p.next(new Settings(2, 1, 16), waits(0.5, 0.05)))
                .isEqualTo(new Change(new Settings(2, 1, 32), Reason.WAITS_ON_IO));
    }

    @Test
    void computingWorkersOrAnUnknownCpuGetWorkersAsWithoutTheIoMode() {
        TuningPolicy p = ioPolicy(256, 1L << 40);
        assertThat(p.next(new Settings(1, 1, 4), waits(0.5, 0.95)))
                .isEqualTo(new Change(new Settings(2, 1, 4), Reason.CONSUMER_WAITS));
        assertThat(p.next(new Settings(1, 1, 4), waits(0.5, UNKNOWN)))
                .isEqualTo(new Change(new Settings(2, 1, 4), Reason.CONSUMER_WAITS));
        // the loader's ioConcurrency is the most: at it, blocked workers get a worker
        assertThat(ioPolicy(4, 1L << 40).next(new Settings(1, 1, 4), waits(0.5, 0.05)))
                .isEqualTo(new Change(new Settings(2, 1, 4), Reason.CONSUMER_WAITS));
        // at 0 workers a worker comes first: the consumer's thread makes the batches
        assertThat(p.next(new Settings(0, 1, 1), waits(0.5, 0.05)))
                .isEqualTo(new Change(new Settings(1, 1, 1), Reason.CONSUMER_WAITS));
    }

    @Test
    void anIdleConsumerGivesFetchesBackByQuartersBeforeWorkersAndAStepDownThatMadeItWaitIsTheFloor() {
        TuningPolicy p = ioPolicy(256, 1L << 40);
        Settings s = new Settings(2, 1, 32);
        for (int i = 0; i < TuningPolicy.QUIET_WINDOWS; i++) {
            s = apply(s, p.next(s, waits(0, 0.05)));
        }
        assertThat(s).isEqualTo(new Settings(2, 1, 24));
        s = apply(s, p.next(s, waits(0.3, 0.05))); // 24 were too few: back up, and never under 32 again
        assertThat(s).isEqualTo(new Settings(2, 1, 32));
        assertThat(p.ioFloor()).isEqualTo(32);
        for (int i = 0; i < 4 * TuningPolicy.QUIET_WINDOWS; i++) {
            s = apply(s, p.next(s, waits(0, 0.05)));
        }
        // the fetches stay at their floor; a worker goes, and with it the room for its batch's fetches
        assertThat(s.workers()).isEqualTo(1);
        assertThat(s.io()).isEqualTo(16);
    }

    @Test
    void fetchesAtOnceNeverPassTheBudgetOrTheirBoundsWhateverTheSignals() {
        SplittableRandom r = new SplittableRandom(2207);
        for (int trial = 0; trial < 200; trial++) {
            long batch = (1 + r.nextInt(64)) * MB;
            long budget = batch * (2 + r.nextInt(20));
            int maxIo = 1 + r.nextInt(100);
            TuningPolicy p = ioPolicy(maxIo, budget);
            Settings s = new Settings(1, 1, 1);
            for (int window = 0; window < 60; window++) {
                Signals sig = new Signals(r.nextDouble() < 0.7 ? r.nextDouble() : 0, r.nextDouble(),
                        r.nextDouble() * 0.5, batch, r.nextDouble() < 0.1 ? UNKNOWN : r.nextDouble() * 2);
                s = apply(s, p.next(s, sig));
                long inFlight = ((long) s.workers() * s.prefetch() + 1) * batch;
                assertThat(inFlight).as("trial %d window %d: %s", trial, window, s).isLessThanOrEqualTo(budget);
                assertThat(s.io()).as("trial %d window %d: %s", trial, window, s)
                        .isBetween(1, Math.min(maxIo, 16 * Math.max(1, s.workers())));
            }
        }
    }
}
