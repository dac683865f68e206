package dev.stoker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StageClockTest {

    @Test
    void sumsTheSpansOfEachStageApart() {
        StageClock clock = new StageClock();
        clock.record(Stage.DECODE, 100, 350, 0, 1);
        clock.record(Stage.DECODE, 1_000, 1_050, 0, 2);
        clock.record(Stage.COLLATE, 10, 20, 0, 1);

        StageTimes t = clock.times();
        assertThat(t.get(Stage.DECODE)).isEqualTo(new StageTotal(300, 2));
        assertThat(t.get(Stage.COLLATE)).isEqualTo(new StageTotal(10, 1));
        assertThat(t.get(Stage.FETCH)).isEqualTo(StageTotal.NONE);
        assertThat(t.totals()).hasSize(Stage.values().length);
    }

    @Test
    void aSpanThatEndsBeforeItStartsCountsAsNothing() {
        StageClock clock = new StageClock();
        clock.record(Stage.READ, 500, 400, 0, 0);
        assertThat(clock.times().get(Stage.READ)).isEqualTo(new StageTotal(0, 1));
    }

    @Test
    void threadsRecordingAtOnceLoseNothing() throws InterruptedException {
        StageClock clock = new StageClock();
        Trace trace = clock.startTrace(100_000);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            long batch = w;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10_000; i++) {
                    clock.record(Stage.FETCH, 0, 3, 0, batch);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(clock.times().get(Stage.FETCH)).isEqualTo(new StageTotal(120_000, 40_000));
        assertThat(trace.events()).isEqualTo(40_000);
        assertThat(trace.dropped()).isZero();
    }

    @Test
    void aTraceHoldsOnlyTheSpansBetweenItsStartAndStop() {
        StageClock clock = new StageClock();
        clock.record(Stage.FETCH, 0, 1, 0, 0);
        Trace trace = clock.startTrace(10);
        clock.record(Stage.FETCH, 0, 1, 0, 1);
        clock.record(Stage.COLLATE, 1, 2, 0, 1);
        assertThat(clock.stopTrace()).isSameAs(trace);
        clock.record(Stage.FETCH, 0, 1, 0, 2);

        assertThat(trace.isStopped()).isTrue();
        assertThat(trace.events()).isEqualTo(2);
        assertThat(clock.times().get(Stage.FETCH).count()).isEqualTo(3); // the totals count all along
        assertThat(clock.stopTrace()).isNull();
    }

    @Test
    void startingASecondTraceStopsTheFirst() {
        StageClock clock = new StageClock();
        Trace first = clock.startTrace(10);
        Trace second = clock.startTrace(10);
        clock.record(Stage.STEP, 0, 5, 0, 0);
        assertThat(first.isStopped()).isTrue();
        assertThat(first.events()).isZero();
        assertThat(second.events()).isEqualTo(1);
    }

    @Test
    void listenersHearEachSpanUntilTheyStop() {
        StageClock clock = new StageClock();
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        StageClock.Listening a = clock.listen((s, start, d, e, b) -> first.add(s.label() + " " + start + "+" + d + " " + e + "/" + b));
        StageClock.Listening b = clock.listen((s, start, d, e, k) -> second.add(s.label()));
        clock.record(Stage.WAIT, 10, 25, 2, 7);
        a.close();
        clock.record(Stage.FETCH, 30, 20, 2, 8); // ends before it starts: counted as 0
        a.close(); // twice: harmless
        b.close();
        clock.record(Stage.STEP, 40, 50, 2, 8);

        assertThat(first).containsExactly("wait 10+15 2/7");
        assertThat(second).containsExactly("wait", "fetch");
        assertThat(clock.times().get(Stage.STEP).count()).isEqualTo(1); // the totals go on without listeners
    }
}
