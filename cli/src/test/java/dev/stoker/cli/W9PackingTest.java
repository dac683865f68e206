package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** W9 over a small JSONL of its own examples: every configuration delivers every row, packed as planned. */
class W9PackingTest {
    static final int EXAMPLES = 400;

    @TempDir
    Path data;

    @Test
    void theLengthsAreLongTailedAsDefined() {
        int[] lengths = W9Packing.lengths(W9Packing.EXAMPLES);
        int[] sorted = lengths.clone();
        Arrays.sort(sorted);
        assertThat(sorted[0]).isGreaterThanOrEqualTo(W9Packing.MIN_LENGTH);
        assertThat(sorted[sorted.length - 1]).isEqualTo(W9Packing.ROW);   // the tail reaches the clamp
        assertThat(sorted[sorted.length / 2]).isBetween(320, 380);         // median 350
        assertThat(Arrays.stream(lengths).average().orElseThrow()).isGreaterThan(450);  // mean above the median
        assertThat(W9Packing.lengths(50)).containsExactly(Arrays.copyOf(lengths, 50));
    }

    @Test
    void everyConfigurationDeliversEveryRowPacked() throws Exception {
        W9Packing.write(data.resolve(W9Packing.FILE), W9Packing.lengths(EXAMPLES));
        long realTokens = Arrays.stream(W9Packing.lengths(EXAMPLES)).asLongStream().sum();
        try (W9Packing w9 = new W9Packing(EXAMPLES)) {
            assertThat(w9.efficiency()).isGreaterThan(0.95);
            for (Configuration c : w9.configurations()) {
                long rows = 0;
                long tokens = 0;
                try (DataLoader<?> loader = w9.newLoader(c, 3, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor ids = b.tensor("input_ids");
                            Tensor positions = b.tensor("position_ids");
                            Tensor mask = b.tensor("attention_mask");
                            int n = (int) ids.shape().dim(0);
                            assertThat(ids.shape()).isEqualTo(Shape.of(n, W9Packing.ROW));
                            for (int j = 0; j < n; j++) {
                                assertThat(positions.getLong((long) j * W9Packing.ROW)).isZero();
                                long[] m = mask.select(j).toLongArray();
                                long real = Arrays.stream(m).sum();
                                assertThat(real).isPositive();
                                tokens += real;
                                long[] tok = ids.select(j).toLongArray();
                                for (int t = 0; t < real; t++) {
                                    assertThat(tok[t]).isBetween(0L, (long) W9Packing.VOCABULARY - 1);
                                }
                            }
                            rows += n;
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(rows).as(c.name()).isEqualTo(w9.samplesPerEpoch());
                assertThat(tokens).as(c.name()).isEqualTo(realTokens);
            }
        }
    }
}
