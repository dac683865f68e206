package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.metrics.MachineCpu;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageTimes;
import dev.stoker.metrics.StageTotal;
import dev.stoker.metrics.Usage;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdict's reasoning, on stage totals made up to sit on each side of its lines. */
class LoaderProfileTest {
    private static final long MS = 1_000_000;

    /** 100 batches: {@code loadMs} of loading each (split as given), {@code waitMs} and {@code stepMs} per step. */
    private static StageTimes times(double loadMs, double waitMs, double stepMs, Map<Stage, Double> partsMs) {
        Map<Stage, StageTotal> m = new EnumMap<>(Stage.class);
        m.put(Stage.FETCH, new StageTotal((long) (loadMs * MS * 100), 100));
        m.put(Stage.FIRST_BATCH, new StageTotal(50 * MS, 1));
        m.put(Stage.WAIT, new StageTotal((long) (waitMs * MS * 99), 99));
        m.put(Stage.STEP, new StageTotal((long) (stepMs * MS * 99), 99));
        partsMs.forEach((s, ms) -> m.put(s, new StageTotal((long) (ms * MS * 100), 100)));
        return new StageTimes(m);
    }

    /** A profile whose process kept every worker's core busy the whole time: loading that computes. */
    private static LoaderProfile profile(StageTimes t, int workers, double seconds, int cores) {
        return profile(t, workers, seconds, Math.max(1, Math.min(workers, cores)) * seconds, cores);
    }

    private static LoaderProfile profile(StageTimes t, int workers, double seconds, double cpuSeconds, int cores) {
        return profile(t, workers, seconds, cpuSeconds, -1, cores);
    }

    private static LoaderProfile profile(StageTimes t, int workers, double seconds, double cpuSeconds,
                                         double machineBusy, int cores) {
        MachineCpu.Ticks machine = machineBusy < 0 ? MachineCpu.UNKNOWN
                : new MachineCpu.Ticks(1_000, Math.round(1_000 * machineBusy));
        return new LoaderProfile(t, workers, 2, 0, true,
                new Usage((long) (seconds * 1e9), (long) (cpuSeconds * 1e9), machine), cores);
    }

    @Test
    void aLoopThatBarelyWaitsIsComputeBound() {
        // 4 workers, 10 ms of loading a batch, a 20 ms step: 100 batches in about 2 s
        LoaderProfile p = profile(times(10, 0.1, 20, Map.of()), 4, 2.0, 8);
        assertThat(p.waitShare()).isLessThan(0.01);
        assertThat(p.verdict().kind()).isEqualTo(Verdict.Kind.COMPUTE_BOUND);
        // 1 s of loading over 4 x 2 s of worker time: 12.5% busy, so one or two would do
        assertThat(p.workerBusyShare()).isCloseTo(0.125, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.verdict().reason()).contains("busy 13%").contains(": 1 would do");
    }

    @Test
    void withoutWorkersTheStepWaitsForAllTheLoading() {
        LoaderProfile p = profile(times(30, 30, 10, Map.of()), 0, 4.0, 8);
        Verdict v = p.verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(v.reason()).contains("numWorkers 0").contains("about 3 would keep up");
        assertThat(v.toString()).startsWith("data-bound: the loop waited for data 75%");
    }

    @Test
    void saturatedWorkersNameTheirLargestStageAndAskForCores() {
        // 2 workers loading 40 ms a batch, most of it decode; 100 batches in 2.1 s: busy 95%
        StageTimes t = times(40, 10, 10, Map.of(Stage.READ, 4.0, Stage.DECODE, 30.0, Stage.TRANSFORM, 5.0));
        Verdict more = profile(t, 2, 2.1, 8).verdict();
        assertThat(more.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(more.reason()).contains("decode takes the most: 75% of loading")
                .contains("More workers would help").contains("about 4 would keep up");

        Verdict none = profile(t, 2, 2.1, 2).verdict();
        assertThat(none.reason()).contains("Every core is in use").doesNotContain("fill path"); // no collate: already filling
    }

    @Test
    void busyWorkersThatUseNoCpuAreWaitingNotComputing() {
        // W1's case: 4 workers asleep in a 5 ms "read" per sample, the process at 0.3 of 8 cores
        StageTimes t = times(40, 10, 10, Map.of(Stage.READ, 38.0));
        LoaderProfile p = profile(t, 2, 2.1, 0.6, 8);
        assertThat(p.coresUsed()).isCloseTo(0.29, org.assertj.core.data.Offset.offset(0.01));
        Verdict v = p.verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(v.reason()).contains("used only 0.3 of 8 cores").contains("read takes the most: 95%")
                .contains("about 4 would keep up").contains("ioConcurrency");

        // where the runtime does not say, busy workers are taken to compute
        Verdict unknown = new LoaderProfile(t, 2, 2, 0, true,
                new Usage(2_100_000_000L, -1, MachineCpu.UNKNOWN), 8).verdict();
        assertThat(unknown.reason()).contains("More workers would help");
    }

    @Test
    void workersShortOfCpuOnAFullMachineAreCrowdedOutNotWaiting() {
        // the same figures, but the machine was 97% busy: other processes had the cores
        StageTimes t = times(40, 10, 10, Map.of(Stage.DECODE, 38.0));
        Verdict v = profile(t, 2, 2.1, 0.6, 0.97, 2).verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(v.reason()).contains("got only 0.3 of 2 cores while the machine's cores were 97% busy")
                .contains("other processes").doesNotContain("ioConcurrency");
        assertThat(profile(t, 2, 2.1, 0.6, 0.97, 2).report()).contains("CPU 0.3 of 2 cores (the machine 97% busy)");
        // an idle machine: they wait
        assertThat(profile(t, 2, 2.1, 0.6, 0.30, 2).verdict().reason()).contains("rather than compute");
    }

    @Test
    void workersWaitingForPoolMemoryPointAtTheBudget() {
        StageTimes t = times(40, 10, 10, Map.of(Stage.MEMORY, 20.0));
        Verdict v = profile(t, 2, 2.1, 8).verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(v.reason()).contains("50% of their loading time waiting for pool memory").contains("budget");
    }

    @Test
    void idleWorkersWithAWaitingLoopPointAtThePrefetch() {
        // 4 workers, 5 ms a batch, 10 s running: busy 1%, yet the loop waited half its time
        Verdict v = profile(times(5, 20, 20, Map.of()), 4, 10, 8).verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(v.reason()).contains("busy only 1%").contains("prefetchFactor is 2").contains("inOrder(false)");
    }

    @Test
    void aWindowIsTheDifferenceOfTwoProfilesWithItsOwnVerdict() {
        // the first hour compute-bound, then storage slowed down: the window shows it, the total hides it
        LoaderProfile hour = new LoaderProfile(times(10, 0.1, 20, Map.of()), 4, 2, 0, true,
                new Usage(2_000_000_000L, 8_000_000_000L, new MachineCpu.Ticks(1_000, 500)), 8);
        StageTimes first = hour.times();
        Map<Stage, StageTotal> m = new EnumMap<>(Stage.class);
        for (Stage s : Stage.values()) { // a second hour like the first ...
            m.put(s, new StageTotal(first.nanos(s) * 2, first.get(s).count() * 2));
        }
        // ... but for its waits: 30 ms before each of its 99 batches
        m.put(Stage.WAIT, new StageTotal(first.nanos(Stage.WAIT) + 99 * 30 * MS, 198));
        LoaderProfile two = new LoaderProfile(new StageTimes(m), 4, 2, 0, true,
                new Usage(5_000_000_000L, 9_000_000_000L, new MachineCpu.Ticks(3_000, 2_500)), 8);

        LoaderProfile window = two.since(hour);
        assertThat(window.times().get(Stage.WAIT).count()).isEqualTo(99);
        assertThat(window.activeNanos()).isEqualTo(3_000_000_000L);
        assertThat(window.cpuNanos()).isEqualTo(1_000_000_000L);
        assertThat(window.machineBusyShare()).isEqualTo(1.0); // 2,000 busy of 2,000 ticks
        assertThat(hour.verdict().kind()).isEqualTo(Verdict.Kind.COMPUTE_BOUND);
        assertThat(window.verdict().kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
        assertThat(window.waitShare()).isGreaterThan(two.waitShare());
    }

    @Test
    void tooFewBatchesGiveNoVerdict() {
        Map<Stage, StageTotal> m = new EnumMap<>(Stage.class);
        m.put(Stage.STEP, new StageTotal(5 * MS, 2));
        Verdict v = profile(new StageTimes(m), 2, 1, 8).verdict();
        assertThat(v.kind()).isEqualTo(Verdict.Kind.UNKNOWN);
        assertThat(v.reason()).contains("2 batches");
    }

    @Test
    void theReportListsTheStagesTheDatasetTimedAndTheVerdict() {
        StageTimes t = times(40, 10, 10, Map.of(Stage.DECODE, 30.0));
        String report = profile(t, 2, 2.1, 8).report();
        assertThat(report).contains("fetch").contains("  decode").contains("75.0% of loading")
                .contains("first batch").contains("50.0% of the loop").contains("verdict: data-bound")
                .doesNotContain("transform"); // not timed: not shown
    }
}
