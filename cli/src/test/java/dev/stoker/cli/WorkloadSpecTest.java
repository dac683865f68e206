package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The workloads' getters read their spec: what the report and the data check rely on. */
class WorkloadSpecTest {

    @Test
    void theGettersReadTheSpec() {
        Workload w1 = new W1Synthetic(100, Duration.ZERO);

        assertThat(List.of(w1.name(), w1.title())).containsExactly("W1", "synthetic-delay");
        assertThat(w1.epochs()).isEqualTo(4);
        assertThat(w1.batchSize()).isEqualTo(32);
        assertThat(w1.samplesPerEpoch()).isEqualTo(100);
        assertThat(w1.batchesPerEpoch()).isEqualTo(4); // 32 + 32 + 32 + 4
        assertThat(w1.outputBytesPerSample()).isEqualTo(3L * 224 * 224 * Float.BYTES);
        assertThat(new W4VarlenCollate(10).outputBytesPerSample()).isZero();
    }

    @Test
    void theDataKindSaysWhetherDataIsReadAndWhetherItIsMadeWhenMissing() {
        assertThat(new W1Synthetic().needsData()).isFalse();
        assertThat(new W1Synthetic().makesMissingData()).isFalse();
        assertThat(new W2TokenMemmap().needsData()).isTrue();
        assertThat(new W2TokenMemmap().makesMissingData()).isTrue();
        assertThat(new W8Lmdb().needsData()).isTrue();
        assertThat(new W8Lmdb().makesMissingData()).isFalse();
    }

    @Test
    void aWorkloadNeedsASample() {
        assertThatThrownBy(() -> new W6InMemoryTensors(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("W6 needs at least one sample, not 0");
        assertThatThrownBy(() -> new WorkloadSpec("W9", "x", WorkloadSpec.Data.NONE, 0, 64, 1, 0))
                .hasMessageContaining("W9");
    }
}
