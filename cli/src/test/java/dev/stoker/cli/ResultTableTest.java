package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {

    @Test
    void columnsAreAlignedAndUnknownsShowAsADash() {
        BenchResult slow = new BenchResult("W1", Configuration.of(0, false, false),
                List.of(new Measurement(12_000_000_000L, 190_000_000L, 2048, 64, 40 << 20)), 602_112, 300L << 20);
        BenchResult fast = new BenchResult("W1", Configuration.of(8, true, true),
                List.of(new Measurement(1_500_000_000L, 9_000_000L, 2048, 64, 80 << 20)), 0, -1);

        List<String> lines = ResultTable.format(List.of(slow, fast)).lines().toList();

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("configuration");
        assertThat(lines.get(1)).startsWith("nw=0 ").contains("170.7", "5.33", "102.8", "190.0", "300", "40");
        assertThat(lines.get(2)).startsWith("nw=8 persistent batched").contains("1,365.3", "-");
        // the progressive table: 1,365.3 / 170.7 samples/s = 8.00 times the baseline and the row before
        assertThat(lines.get(1)).contains("  1.00    1.00");
        assertThat(lines.get(2)).contains("  8.00    8.00");
        // right-aligned: every line ends at the same column
        assertThat(lines).extracting(String::length).containsOnly(lines.get(0).length());
    }
}
