package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchResultTest {
    private static Measurement rep(double seconds, long firstBatchMs, long poolPeak) {
        return new Measurement((long) (seconds * 1e9), firstBatchMs * 1_000_000, 2048, 64, poolPeak);
    }

    @Test
    void samplesPerSecondComeFromTheMedianTimeWithMinAndMax() {
        BenchResult r = new BenchResult("W1", Configuration.of(0, false, false),
                List.of(rep(4.0, 30, 10), rep(2.0, 10, 30), rep(8.0, 20, 20)), 602_112, 1 << 20);

        assertThat(r.samplesPerSecond()).isCloseTo(2048 / 4.0, within(1e-9));
        assertThat(r.samplesPerSecondMin()).isCloseTo(2048 / 8.0, within(1e-9));
        assertThat(r.samplesPerSecondMax()).isCloseTo(2048 / 2.0, within(1e-9));
        assertThat(r.batchesPerSecond()).isCloseTo(64 / 4.0, within(1e-9));
        assertThat(r.megabytesPerSecond()).isCloseTo(2048 / 4.0 * 602_112 / 1e6, within(1e-9));
        assertThat(r.firstBatchMillis()).isCloseTo(20, within(1e-9));
        assertThat(r.poolPeakBytes()).isEqualTo(30);
        assertThat(r.timesSeconds()).containsExactly(4.0, 2.0, 8.0);
    }

    @Test
    void anEvenCountTakesTheMeanOfTheMiddleTwo() {
        BenchResult r = new BenchResult("W1", Configuration.of(0, false, false),
                List.of(rep(1.0, 1, 1), rep(3.0, 1, 1)), 0, -1);

        assertThat(r.medianNanos()).isEqualTo(2e9);
        assertThat(r.megabytesPerSecond()).isNaN(); // no byte volume defined
    }
}
