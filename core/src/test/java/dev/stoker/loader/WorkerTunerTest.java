package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The tuner's choices, on a dataset whose batches take a fixed 20 ms of waiting (a sleep, so that
 * the machine's load hardly matters). The assertions are the laws of the choice, not timings.
 */
class WorkerTunerTest {
    private static final long LOAD_NANOS = Duration.ofMillis(20).toNanos();

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** 4 samples a batch, each a 5 ms sleep. */
    private static final class SlowStorage implements Dataset<Long> {
        @Override
        public long size() {
            return 1_000;
        }

        @Override
        public Long get(long index) {
            LockSupport.parkNanos(LOAD_NANOS / 4);
            return index;
        }
    }

    private static WorkerTuner tuner() {
        SlowStorage ds = new SlowStorage();
        return WorkerTuner.of(n -> DataLoader.builder(ds).batchSize(4).numWorkers(n).build()).batchesPerTrial(10);
    }

    @Test
    void choosesTheFewestWorkersThatKeepTheStepFed() {
        List<Integer> seen = new ArrayList<>();
        // a 15 ms step against 20 ms a batch: one worker falls short by a quarter, two make a batch every
        // 10 ms, a third faster than the step; neither is near the line, so a loaded machine's late wake-ups
        // (a step of 10 ms, exactly two workers' pace, was) do not move the choice
        TuningResult r = tuner().step(Duration.ofMillis(15)).run(t -> seen.add(t.numWorkers()));

        assertThat(r.chosen().keepsUp()).isTrue();
        assertThat(r.numWorkers()).isGreaterThanOrEqualTo(2);
        // every count tried below the one chosen fell short
        assertThat(r.trials()).filteredOn(t -> t.numWorkers() < r.numWorkers()).allMatch(t -> !t.keepsUp())
                .extracting(TuningTrial::numWorkers).contains(r.numWorkers() - 1);
        assertThat(seen).startsWith(0, 1, 2).isEqualTo(r.trials().stream().map(TuningTrial::numWorkers).toList());
        assertThat(r.reason()).startsWith("the fewest workers that keep a 15 ms step fed: the loop waited");
    }

    @Test
    void aStepNoCountCanFeedGetsTheFastestAndSaysSo() {
        TuningResult r = tuner().step(Duration.ofMillis(1)).maxWorkers(3).run();

        assertThat(r.trials()).extracting(TuningTrial::numWorkers).containsExactly(0, 1, 2, 3);
        assertThat(r.trials()).noneMatch(TuningTrial::keepsUp);
        double fastest = r.trials().stream().mapToDouble(TuningTrial::batchesPerSecond).max().orElseThrow();
        assertThat(r.chosen().batchesPerSecond()).isGreaterThanOrEqualTo(fastest * (1 - WorkerTuner.SAME_SPEED));
        assertThat(r.reason()).startsWith("no worker count tried (up to 3) keeps a 1 ms step fed, which takes 1000.0"
                + " batches/s");
    }

    /** Storage that serves one read at a time: past one worker, more are no faster. */
    private static final class OneAtATime implements Dataset<Long> {
        @Override
        public long size() {
            return 1_000;
        }

        @Override
        public synchronized Long get(long index) {
            LockSupport.parkNanos(LOAD_NANOS / 4);
            return index;
        }
    }

    @Test
    void theReasonExplainsTheCountChosenNotTheMostTried() {
        OneAtATime ds = new OneAtATime();
        TuningResult r = WorkerTuner.of(n -> DataLoader.builder(ds).batchSize(4).numWorkers(n).build())
                .batchesPerTrial(10).step(Duration.ofMillis(1)).maxWorkers(16).run();

        int most = r.trials().stream().mapToInt(TuningTrial::numWorkers).max().orElseThrow();
        assertThat(r.numWorkers()).isLessThan(most); // more workers were tried, and no faster
        assertThat(r.reason()).contains("(up to " + most + ")")
                .endsWith(". With " + r.numWorkers() + ": " + r.chosen().profile().verdict().reason());
    }

    @Test
    void withoutAStepItTakesTheFewestAboutAsFastAsTheFastest() {
        TuningResult r = tuner().maxWorkers(2).run();

        double fastest = r.trials().stream().mapToDouble(TuningTrial::batchesPerSecond).max().orElseThrow();
        assertThat(r.chosen().batchesPerSecond()).isGreaterThanOrEqualTo(fastest * (1 - WorkerTuner.SAME_SPEED));
        assertThat(r.trials()).filteredOn(t -> t.numWorkers() < r.numWorkers())
                .allMatch(t -> t.batchesPerSecond() < fastest * (1 - WorkerTuner.SAME_SPEED));
        assertThat(r.reason()).startsWith("the fewest workers within 5% of the fastest count tried");
    }

    @Test
    void aFunctionThatIgnoresTheCountIsNamed() {
        SlowStorage ds = new SlowStorage();
        WorkerTuner t = WorkerTuner.of(n -> DataLoader.builder(ds).batchSize(4).numWorkers(2).build());
        assertThatThrownBy(t::run).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("asked for a loader with 0 workers, the tuner's function built one with 2: pass n to"
                        + " numWorkers(n)");
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> tuner().batchesPerTrial(2)).hasMessageContaining("at least 5 batches");
        assertThatThrownBy(() -> tuner().step(Duration.ofMillis(-1))).hasMessageContaining("cannot be negative");
        assertThatThrownBy(() -> tuner().maxWorkers(-1)).hasMessageContaining("0 or more");
    }

    @Test
    void anEmptyLoaderCannotBeJudged() {
        Dataset<Long> none = Datasets.subset(new SlowStorage(), new long[0]);
        WorkerTuner t = WorkerTuner.of(n -> DataLoader.builder(none).batchSize(4).numWorkers(n).build());
        assertThatThrownBy(t::run).hasMessage("the loader gave only 0 batches; a trial needs at least 5");
    }
}
