package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.TensorDataset;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.api.Test;

class InFlightBoundTest {

    @Test
    void aFilledLayoutStatesTheBoundBeforeTheFirstBatch() {
        try (Arena arena = Arena.ofConfined()) {
            TensorDataset<List<Tensor>> ds = TensorDataset.of(
                    Tensor.allocate(arena, DType.F32, Shape.of(40, 3, 100, 100)), Tensor.allocate(arena, DType.I64, Shape.of(40)));
            try (DataLoader<List<Tensor>> loader = DataLoader.builder(ds).batchSize(8).numWorkers(4).prefetchFactor(2).build()) {
                InFlightBound bound = loader.inFlightBound();

                long batchBytes = 8L * (3 * 100 * 100 * 4 + 8);
                assertThat(bound.batches()).isEqualTo(8);
                assertThat(bound.batchBytes()).isEqualTo(batchBytes);
                assertThat(bound.bytes()).isEqualTo(8 * batchBytes);
                assertThat(bound.measured()).isFalse();
                assertThat(bound.toString()).isEqualTo("2 prefetch x 4 workers x 1.0 MB = 7.7 MB");
            }
        }
    }

    @Test
    void theGeneralPathLearnsTheBatchSizeFromTheFirstBatch() {
        try (Arena arena = Arena.ofConfined()) {
            TensorDataset<List<Tensor>> ds = TensorDataset.of(Tensor.allocate(arena, DType.F32, Shape.of(10, 1000)));
            try (DataLoader<List<Tensor>> loader = DataLoader.builder(ds).batchSize(5)
                    .collate(DefaultCollate.instance()).build()) {
                assertThat(loader.inFlightBound().bytes()).isEqualTo(-1);
                assertThat(loader.inFlightBound().toString()).contains("known after the first batch");

                loader.iterator().next().close();

                InFlightBound bound = loader.inFlightBound();
                assertThat(bound.batches()).isEqualTo(1);
                assertThat(bound.measured()).isTrue();
                assertThat(bound.batchBytes()).isGreaterThanOrEqualTo(5 * 1000 * 4);
                assertThat(bound.toString()).startsWith("1 batch in the caller's thread x ");
            }
        }
    }
}
