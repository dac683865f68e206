package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.MixedStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Shards written by Python's tarfile and NumPy (src/test/python/make_tensor_shards.py), read into
 * batches through a real loader: every field of every sample in its row, from mapped shards and
 * from streamed ones (heap segments), on the caller's thread and on workers.
 */
class TarTensorStreamTest {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);
    private static final List<Integer> ALL = IntStream.range(0, 24).boxed().toList();

    @Test
    void theLayoutIsTheDeclaredFieldsInOrder() {
        TarTensorStream ds = TensorShards.fields(TarShardDataset.builder(TensorShards.good()).build()).build();
        assertThat(ds.layout()).isEqualTo(SampleLayout.of(
                new SampleLayout.Field("x", DType.F32, Shape.of(2, 3)),
                new SampleLayout.Field("y", DType.I16, Shape.of(3)),
                new SampleLayout.Field("t", DType.F64, Shape.scalar()),
                new SampleLayout.Field("label", DType.I64, Shape.scalar()),
                new SampleLayout.Field("emb", DType.F16, Shape.of(4))));
        assertThat(ds.name()).isEqualTo("tensors (x, y, t, label, emb) of tar shards (2, first "
                + Fixtures.tar("tensors-0.tar") + ")");
    }

    @Test
    void everySampleLandsInItsRowFromMappedShards() {
        readsEverySample(TarShardDataset.builder(TensorShards.good()).shuffleShards(true).build());
    }

    @Test
    void everySampleLandsInItsRowFromStreamedShards() {
        // pipe: shards are streamed: every member is a heap segment (alignment 1)
        Path dir = Fixtures.tar("tensors-0.tar").getParent();
        TarShardDataset streamed = TarShardDataset.builder("pipe:cat '" + dir + "'/tensors-{0..1}.tar").build();
        try (SampleStream<TarSample> s = streamed.open(ONE)) {
            assertThat(s.next().segment("x.npy").isNative()).isFalse();
        }
        readsEverySample(streamed);
    }

    private static void readsEverySample(TarShardDataset shards) {
        TarTensorStream ds = TensorShards.fields(shards).build();
        for (int workers : new int[] {0, 2}) {
            DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(5).numWorkers(workers).seed(4).build();
            try (loader) {
                for (int epoch = 0; epoch < 2; epoch++) {
                    List<Integer> seen = new ArrayList<>();
                    for (Batch b : loader) {
                        try (b) {
                            assertThat(b.tensor("x").dtype()).isEqualTo(DType.F32);
                            assertThat(b.tensor("label").dtype()).isEqualTo(DType.I64);
                            assertThat(b.tensor("label").shape().rank()).isEqualTo(1);
                            assertThat(b.tensor("emb").dtype()).isEqualTo(DType.F16);
                            TensorShards.assertRows(b);
                            seen.addAll(TensorShards.ids(b));
                        }
                    }
                    assertThat(seen).as("%d workers, epoch %d", workers, epoch).containsExactlyInAnyOrderElementsOf(ALL);
                }
            }
            assertThat(loader.pool().stats().lentBytes()).isZero();
            assertThat(loader.pool().stats().reservedBytes()).isZero();
        }
    }

    @Test
    void theTupleFormGivesTheTensorsAsAListInFieldOrder() {
        TarTensorStream ds = TarTensorStream.builder(TarShardDataset.builder(TensorShards.good()).build())
                .npy("x", "x.npy", DType.F32, Shape.of(2, 3))
                .integer("label", "cls", DType.I8)
                .tuple()
                .build();
        assertThat(ds.layout().form()).isEqualTo(SampleLayout.Form.LIST);
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(24).build()) {
            for (Batch b : loader) {
                try (b) {
                    assertThat(b.data()).isInstanceOf(List.class);
                    Tensor x = b.tensor(0);
                    Tensor label = b.tensor(1);
                    assertThat(x.shape()).isEqualTo(Shape.of(24, 2, 3));
                    assertThat(label.dtype()).isEqualTo(DType.I8);
                    for (int i = 0; i < 24; i++) { // no shuffle, one worker's stream: shard order
                        assertThat(x.select(i).toFloatArray()).containsExactly(TensorShards.x(i));
                        assertThat(label.getLong(i)).isEqualTo(TensorShards.label(i));
                    }
                }
            }
        }
    }

    @Test
    void aMixtureOfShardSetsIsReadAsOne() {
        String dir = Fixtures.tar("tensors-0.tar").getParent().toString();
        MixedStreamingDataset<TarSample> mix = MixedStreamingDataset.of(List.of(
                TarShardDataset.builder(dir + "/tensors-0.tar").build(),
                TarShardDataset.builder(dir + "/tensors-1.tar").build()), 0.5, 0.5)
                .until(MixedStreamingDataset.Until.ALL_END);
        TarTensorStream ds = TensorShards.fields(mix).build();
        List<Integer> seen = new ArrayList<>();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(7).numWorkers(1).build()) {
            for (Batch b : loader) {
                try (b) {
                    TensorShards.assertRows(b);
                    seen.addAll(TensorShards.ids(b));
                }
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(ALL);
    }

    @Test
    void itsStreamIsTheSourcesStreamSkipIncluded() {
        TarShardDataset shards = TarShardDataset.builder(TensorShards.good()).build();
        TarTensorStream ds = TensorShards.fields(shards).build();
        try (SampleStream<TarSample> s = ds.open(ONE)) {
            assertThat(s.skip(13)).isEqualTo(13);
            assertThat(s.next().key()).isEqualTo("000013");
            assertThat(s.skip(100)).isEqualTo(10);
            assertThat(s.hasNext()).isFalse();
        }
    }

    @Test
    void aLoaderWithItsOwnCollateGetsTheSamplesAsTheyAre() {
        TarTensorStream ds = TensorShards.fields(TarShardDataset.builder(TensorShards.good()).build()).build();
        List<String> keys = new ArrayList<>();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(24)
                .collate((samples, memory) -> samples.stream().map(TarSample::key).toList()).build()) {
            for (Batch b : loader) {
                try (b) {
                    @SuppressWarnings("unchecked")
                    List<String> k = (List<String>) b.data();
                    keys.addAll(k);
                }
            }
        }
        assertThat(keys).hasSize(24).startsWith("000000", "000001");
    }
}
