package dev.stoker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MachineCpuTest {

    @Test
    void readsTheFirstLineOfProcStat() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        MachineCpu.Ticks t = MachineCpu.parse("cpu  100 5 50 800 20 3 2 0 40 0");
        assertThat(t).isEqualTo(new MachineCpu.Ticks(980, 160));
    }

    @Test
    void theBusyShareIsTheBusyTicksOverAllBetweenTwoReadings() {
        MachineCpu.Ticks a = new MachineCpu.Ticks(1_000, 400);
        MachineCpu.Ticks b = new MachineCpu.Ticks(1_200, 550);
        assertThat(MachineCpu.busyShare(a, b)).isEqualTo(0.75);
        assertThat(MachineCpu.busyShare(a, a)).isEqualTo(-1); // no time passed
        assertThat(MachineCpu.busyShare(MachineCpu.UNKNOWN, b)).isEqualTo(-1);
    }

    @Test
    void anythingElseIsUnknown() {
        assertThat(MachineCpu.parse(null)).isEqualTo(MachineCpu.UNKNOWN);
        assertThat(MachineCpu.parse("intr 1 2 3")).isEqualTo(MachineCpu.UNKNOWN);
        assertThat(MachineCpu.parse("cpu 1 2")).isEqualTo(MachineCpu.UNKNOWN);
    }

    @Test
    void onLinuxTheCountersMoveForward() {
        MachineCpu.Ticks a = MachineCpu.ticks();
        if (a.equals(MachineCpu.UNKNOWN)) {
            assertThat(System.getProperty("os.name")).doesNotContainIgnoringCase("linux");
            return;
        }
        long spin = System.nanoTime() + 30_000_000;
        while (System.nanoTime() < spin) {
            Thread.onSpinWait(); // keep one core busy for 30 ms: more than a 10 ms tick
        }
        MachineCpu.Ticks b = MachineCpu.ticks();
        assertThat(b.total()).isGreaterThan(a.total());
        assertThat(b.busy()).isGreaterThan(a.busy());
        assertThat(MachineCpu.busyShare(a, b)).isBetween(0.0, 1.0);
    }
}
