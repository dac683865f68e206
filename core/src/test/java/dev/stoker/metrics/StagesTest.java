package dev.stoker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StagesTest {

    @Test
    void outsideALoaderASpanGoesNowhere() {
        assertThat(Stages.current()).isNull();
        long t = Stages.start();
        long end = Stages.end(Stage.DECODE, t);
        assertThat(end).isGreaterThanOrEqualTo(t);
    }

    @Test
    void insideAScopeSpansGoToItsClockWithItsBatch() {
        StageClock clock = new StageClock();
        Trace trace = clock.startTrace(10);
        Stages.Scope scope = new Stages.Scope(clock, 3, 17);
        String out = Stages.call(scope, () -> {
            assertThat(Stages.current()).isEqualTo(scope);
            long t = Stages.start();
            t = Stages.end(Stage.READ, t);
            Stages.end(Stage.DECODE, t);
            return "done";
        });
        assertThat(out).isEqualTo("done");
        assertThat(Stages.current()).isNull(); // nothing left behind in the thread
        assertThat(clock.times().get(Stage.READ).count()).isEqualTo(1);
        assertThat(clock.times().get(Stage.DECODE).count()).isEqualTo(1);
        assertThat(trace.toChromeJson()).contains("\"epoch\":3,\"batch\":17");
    }

    @Test
    void aNullScopeJustRunsTheAction() {
        assertThat(Stages.call(null, () -> Stages.current() == null)).isTrue();
    }
}
