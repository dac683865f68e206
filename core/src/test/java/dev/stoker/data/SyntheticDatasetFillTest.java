package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.BatchMemory;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyntheticDatasetFillTest {

    private static final class CountingSleeper implements SyntheticDataset.Sleeper {
        final List<Duration> sleeps = new ArrayList<>();

        @Override
        public void sleep(Duration duration) {
            sleeps.add(duration);
        }
    }

    private static byte[] bytes(Tensor t) {
        return t.segment().toArray(ValueLayout.JAVA_BYTE);
    }

    /** The batch tensors of {@code indices}, filled one by one or all at once, next to what get-then-collate makes. */
    private static void assertFillEqualsCollate(SyntheticDataset ds, long[] indices, boolean batched) {
        try (Arena arena = Arena.ofConfined()) {
            BatchMemory memory = (dtype, shape) -> Tensor.allocate(arena, dtype, shape);
            SampleLayout layout = ds.layout();
            List<Tensor> tensors = new ArrayList<>();
            for (SampleLayout.Field f : layout.fields()) {
                Tensor t = memory.allocate(f.dtype(), f.shape().prepend(indices.length));
                t.segment().fill((byte) 0x5A); // garbage a missed byte would show
                tensors.add(t);
            }
            BatchSlots slots = new BatchSlots(layout, tensors);
            if (batched) {
                ds.fillBatch(indices, slots);
            } else {
                for (int j = 0; j < indices.length; j++) {
                    ds.fill(indices[j], slots.slot(j));
                }
            }
            List<SyntheticSample> samples = new ArrayList<>();
            for (long i : indices) {
                samples.add(ds.get(i));
            }
            Map<?, ?> collated = (Map<?, ?>) DefaultCollate.instance().collate(samples, memory);
            Tensor image = (Tensor) collated.get("image");
            Tensor label = (Tensor) collated.get("label");
            assertThat(tensors.get(0).shape()).isEqualTo(image.shape());
            assertThat(tensors.get(0).dtype()).isEqualTo(image.dtype());
            assertThat(bytes(tensors.get(0))).as("%s", ds).isEqualTo(bytes(image));
            assertThat(tensors.get(1).shape()).isEqualTo(label.shape());
            assertThat(tensors.get(1).dtype()).isEqualTo(DType.I64);
            assertThat(bytes(tensors.get(1))).isEqualTo(bytes(label));
        }
    }

    @Test
    void fillWritesWhatGetThenCollateGivesForEveryDtype() {
        for (DType dtype : DType.values()) {
            SyntheticDataset ds = SyntheticDataset.builder().size(30).shape(Shape.of(3, 5, 7)).dtype(dtype).seed(9)
                    .build();
            assertFillEqualsCollate(ds, new long[] {29, 0, 4, 4, 17}, false);
            assertFillEqualsCollate(ds, new long[] {29, 0, 4, 4, 17}, true);
            assertFillEqualsCollate(ds, new long[] {3}, true);
        }
    }

    @Test
    void theLayoutIsTheCollatedSample() {
        SyntheticDataset ds = SyntheticDataset.builder().build();
        assertThat(ds.layout()).isEqualTo(SampleLayout.of(
                new SampleLayout.Field("image", DType.F32, Shape.of(3, 224, 224)),
                new SampleLayout.Field("label", DType.I64, Shape.scalar())));
    }

    @Test
    void fillSleepsPerSampleAndFillBatchPerBatch() {
        CountingSleeper sleeper = new CountingSleeper();
        SyntheticDataset ds = SyntheticDataset.builder().size(8).shape(Shape.of(4)).delay(Duration.ofMillis(5))
                .sleeper(sleeper).build();
        assertFillEqualsCollate(ds, new long[] {1, 2, 3}, false);
        assertThat(sleeper.sleeps).hasSize(3 + 3); // 3 fills, then 3 gets
        sleeper.sleeps.clear();
        assertFillEqualsCollate(ds, new long[] {1, 2, 3}, true);
        assertThat(sleeper.sleeps).hasSize(1 + 3);

        CountingSleeper perSample = new CountingSleeper();
        SyntheticDataset unbatched = SyntheticDataset.builder().size(8).shape(Shape.of(4))
                .delay(Duration.ofMillis(5)).batched(false).sleeper(perSample).build();
        assertFillEqualsCollate(unbatched, new long[] {1, 2, 3}, true);
        assertThat(perSample.sleeps).hasSize(3 + 3);
    }

    @Test
    void aBatchWithABadIndexFailsBeforeSleeping() {
        CountingSleeper sleeper = new CountingSleeper();
        SyntheticDataset ds = SyntheticDataset.builder().size(4).shape(Shape.of(2)).delay(Duration.ofMillis(5))
                .sleeper(sleeper).build();
        try (Arena arena = Arena.ofConfined()) {
            BatchSlots slots = new BatchSlots(ds.layout(), List.of(Tensor.allocate(arena, DType.F32, Shape.of(2, 2)),
                    Tensor.allocate(arena, DType.I64, Shape.of(2))));
            assertThatThrownBy(() -> ds.fillBatch(new long[] {1, 4}, slots))
                    .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("index 4");
            assertThatThrownBy(() -> ds.fill(-1, slots.slot(0))).isInstanceOf(IndexOutOfBoundsException.class);
        }
        assertThat(sleeper.sleeps).isEmpty();
    }

    @Test
    void aLoaderFillsTheSameBatchesItCollates() {
        for (boolean batched : new boolean[] {false, true}) {
            SyntheticDataset ds = SyntheticDataset.builder().size(37).shape(Shape.of(3, 8, 8)).batched(batched).seed(3)
                    .build();
            try (DataLoader<SyntheticSample> fill = DataLoader.builder(ds).batchSize(8).shuffle(true).seed(1).build();
                 DataLoader<SyntheticSample> collate = DataLoader.builder(ds).batchSize(8).shuffle(true).seed(1)
                         .collate(DefaultCollate.instance()).build()) {
                var a = fill.iterator();
                var b = collate.iterator();
                int batches = 0;
                while (a.hasNext()) {
                    try (Batch x = a.next(); Batch y = b.next()) {
                        assertThat(x.indices()).isEqualTo(y.indices());
                        assertThat(bytes(x.tensor("image"))).isEqualTo(bytes(y.tensor("image")));
                        assertThat(x.tensor("image").shape()).isEqualTo(y.tensor("image").shape());
                        assertThat(x.tensor("label").toLongArray()).containsExactly(y.tensor("label").toLongArray());
                    }
                    batches++;
                }
                assertThat(b.hasNext()).isFalse();
                assertThat(batches).isEqualTo(5);
                assertThat(fill.stats().collateNanos()).isZero();
                assertThat(collate.stats().collateNanos()).isPositive();
            }
        }
    }
}
