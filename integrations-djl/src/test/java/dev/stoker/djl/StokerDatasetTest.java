package dev.stoker.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.training.dataset.Batch;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.TensorDataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StokerDatasetTest {
    private static final int N = 10;

    private Arena arena;
    private NDManager manager;
    private Tensor x; // (10, 3) f32: row i is 10i, 10i + 1, 10i + 2
    private Tensor y; // (10) i64: i
    private Tensor w; // (10) f64: i / 2

    @BeforeAll
    static void engineLoads() {
        assertThat(PyTorch.engine().getEngineName()).isEqualTo("PyTorch");
    }

    @BeforeEach
    void open() {
        arena = Arena.ofShared();
        manager = PyTorch.newManager();
        x = Tensor.allocate(arena, DType.F32, Shape.of(N, 3));
        y = Tensor.allocate(arena, DType.I64, Shape.of(N));
        w = Tensor.allocate(arena, DType.F64, Shape.of(N));
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < 3; j++) {
                x.setFloat(i * 3L + j, 10 * i + j);
            }
            y.setLong(i, i);
            w.setDouble(i, i / 2.0);
        }
    }

    @AfterEach
    void close() {
        manager.close();
        arena.close();
    }

    @Test
    void firstFieldIsTheDataAndTheRestAreLabels() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y, w)).batchSize(4).build()) {
            StokerDataset dataset = new StokerDataset(loader);
            List<Integer> sizes = new ArrayList<>();
            for (Batch batch : dataset.getData(manager)) {
                try (batch) {
                    assertThat(batch.getData()).hasSize(1);
                    assertThat(batch.getLabels()).hasSize(2);
                    long[] rows = indices(batch);
                    assertThat(batch.getData().head().toFloatArray()).containsExactly(rowsOf(x, rows).toFloatArray());
                    assertThat(batch.getLabels().get(0).toLongArray()).containsExactly(rows);
                    assertThat(batch.getLabels().get(1).getDataType()).isEqualTo(DataType.FLOAT64);
                    assertThat(batch.getLabels().get(1).toDoubleArray())
                            .containsExactly(LongStream.of(rows).mapToDouble(i -> i / 2.0).toArray());
                    assertThat(batch.getProgressTotal()).isEqualTo(3);
                    assertThat(batch.getProgress()).isEqualTo(sizes.size());
                    sizes.add(batch.getSize());
                }
            }
            assertThat(sizes).containsExactly(4, 4, 2);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void namesPickFieldsOfMapBatchesAndLeaveTheRestOut() {
        Map<String, Tensor> named = new LinkedHashMap<>();
        named.put("weight", w);
        named.put("image", x);
        named.put("label", y);
        try (DataLoader<Map<String, Tensor>> loader = DataLoader.builder(TensorDataset.of(named)).batchSize(5).build()) {
            var dataset = new StokerDataset(loader, FieldSplit.names(List.of("image"), List.of("label")));
            for (Batch batch : dataset.getData(manager)) {
                try (batch) {
                    assertThat(batch.getData().getShapes()).extracting(s -> s.toString()).containsExactly("(5, 3)");
                    assertThat(batch.getData().head().getName()).isEqualTo("image");
                    assertThat(batch.getLabels()).hasSize(1);
                    assertThat(batch.getLabels().head().getName()).isEqualTo("label");
                    assertThat(batch.getLabels().head().toLongArray()).containsExactly(indices(batch));
                }
            }
        }
    }

    @Test
    void positionsPickFieldsInTheirOrder() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y, w)).batchSize(N).build()) {
            var dataset = new StokerDataset(loader, FieldSplit.positions(List.of(2, 0), List.of(1)));
            Batch batch = dataset.getData(manager).iterator().next();
            try (batch) {
                assertThat(batch.getData().get(0).getDataType()).isEqualTo(DataType.FLOAT64);
                assertThat(batch.getData().get(1).getDataType()).isEqualTo(DataType.FLOAT32);
                assertThat(batch.getLabels().head().getDataType()).isEqualTo(DataType.INT64);
            }
        }
    }

    @Test
    void batchesSitInTheLoadersPooledMemory() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(4).build()) {
            Iterator<Batch> epoch = new StokerDataset(loader).getData(manager).iterator();
            List<Long> first = new ArrayList<>();
            try (Batch batch = epoch.next()) {
                first.add(address(batch.getData().head()));
                first.add(address(batch.getLabels().head()));
                assertThat(batch.getData().head().toFloatArray())
                        .containsExactly(rowsOf(x, new long[] {0, 1, 2, 3}).toFloatArray());
            }
            // the pool lends the first batch's buffers again: the second batch's NDArrays are where the first's were
            try (Batch batch = epoch.next()) {
                assertThat(List.of(address(batch.getData().head()), address(batch.getLabels().head())))
                        .containsExactlyInAnyOrderElementsOf(first);
                assertThat(batch.getData().head().toFloatArray())
                        .containsExactly(rowsOf(x, new long[] {4, 5, 6, 7}).toFloatArray());
            }
            assertThat(loader.pool().stats().reuses()).isPositive();
        }
    }

    private static long address(NDArray array) {
        return java.lang.foreign.MemorySegment.ofBuffer(array.toByteBuffer(true)).address();
    }

    @Test
    void closingTheDjlBatchGivesTheStokerBatchBack() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(4).build()) {
            Iterator<Batch> epoch = new StokerDataset(loader).getData(manager).iterator();
            Batch first = epoch.next();
            assertThat(loader.pool().lentBytes()).isPositive();

            first.close();

            assertThat(loader.pool().lentBytes()).isZero();
            assertThat(loader.pool().leaks()).isEmpty();
        }
    }

    @Test
    void aCopyMovedOutOfTheBatchOutlivesIt() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(4).build()) {
            Iterator<Batch> epoch = new StokerDataset(loader).getData(manager).iterator();
            NDArray kept;
            try (Batch batch = epoch.next()) {
                kept = batch.getLabels().head().duplicate();
                kept.attach(manager);
            }
            try (Batch next = epoch.next()) { // reuses, and overwrites, the first batch's memory
                assertThat(next.getLabels().head().toLongArray()).containsExactly(4, 5, 6, 7);
                assertThat(kept.toLongArray()).containsExactly(0, 1, 2, 3);
            }
        }
    }

    @Test
    void closingTheManagerGivesBackEveryBatchStillOpen() {
        NDManager epochManager = manager.newSubManager();
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(2).build()) {
            List<Batch> held = new ArrayList<>();
            for (Batch batch : new StokerDataset(loader).getData(epochManager)) {
                held.add(batch); // never closed
            }
            assertThat(held).hasSize(5);
            assertThat(loader.pool().lentCount()).isEqualTo(5 * 2); // two tensors per batch

            epochManager.close();

            assertThat(loader.pool().lentBytes()).isZero();
            assertThat(loader.pool().leaks()).isEmpty();
        }
    }

    @Test
    void eachGetDataIsTheNextEpochWithWorkers() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y))
                .batchSize(3).shuffle(true).seed(7).numWorkers(2).build()) {
            StokerDataset dataset = new StokerDataset(loader);
            List<List<Long>> orders = new ArrayList<>();
            for (int e = 0; e < 3; e++) {
                List<Long> order = new ArrayList<>();
                for (Batch batch : dataset.getData(manager)) {
                    try (batch) {
                        long[] labels = batch.getLabels().head().toLongArray();
                        assertThat(labels).containsExactly(indices(batch));
                        Arrays.stream(labels).forEach(order::add);
                    }
                }
                assertThat(loader.epoch()).isEqualTo(e);
                assertThat(order).containsExactlyInAnyOrderElementsOf(LongStream.range(0, N).boxed().toList());
                orders.add(order);
            }
            assertThat(orders).doesNotHaveDuplicates(); // shuffled anew each epoch
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void aStreamingBatchIsAllDataWithNoTotal() {
        StreamingDataset<float[]> stream = ctx -> SampleStream.of(IntStream.range(0, 6)
                .filter(i -> i % ctx.globalWorkers() == ctx.globalWorkerId())
                .mapToObj(i -> new float[] {i, -i}).iterator());
        try (DataLoader<float[]> loader = DataLoader.builder(stream).batchSize(3).build()) {
            List<Float> firsts = new ArrayList<>();
            for (Batch batch : new StokerDataset(loader).getData(manager)) {
                try (batch) {
                    assertThat(batch.getLabels()).isEmpty();
                    assertThat(batch.getProgressTotal()).isZero();
                    assertThat(batch.getSize()).isEqualTo(3);
                    firsts.add(batch.getData().head().getFloat(0, 0));
                }
            }
            assertThat(firsts).containsExactly(0f, 3f);
        }
    }

    @Test
    void batchesAreOnTheCpuWhateverTheManagersDevice() {
        // the sub-manager is made without touching a GPU; so is every array of the batch
        NDManager gpu = manager.newSubManager(Device.gpu());
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(4).build()) {
            Batch batch = new StokerDataset(loader).getData(gpu).iterator().next();
            assertThat(batch.getData().head().getDevice()).isEqualTo(Device.cpu());
            assertThat(batch.getManager().getDevice()).isEqualTo(Device.cpu());
            gpu.close();
            assertThat(loader.pool().lentBytes()).as("the batch's manager is the GPU manager's child").isZero();
        }
    }

    @Test
    void aFieldDjlCannotHoldIsNamedAndItsBatchGivenBack() {
        Tensor half = Tensor.allocate(arena, DType.BF16, Shape.of(N, 2));
        Map<String, Tensor> named = new LinkedHashMap<>();
        named.put("image", x);
        named.put("half", half);
        try (DataLoader<Map<String, Tensor>> loader = DataLoader.builder(TensorDataset.of(named)).batchSize(4).build()) {
            Iterator<Batch> epoch = new StokerDataset(loader).getData(manager).iterator();

            assertThatThrownBy(epoch::next)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("field 'half' of batch 0 (epoch 0) is bf16")
                    .hasMessageContaining("f32");
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void aSplitThatDoesNotFitTheBatchSaysWhy() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(4).build()) {
            var byName = new StokerDataset(loader, FieldSplit.names(List.of("image"), List.of()));
            assertThatThrownBy(() -> byName.getData(manager).iterator().next())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is a ")
                    .hasMessageContaining("FieldSplit.positions");

            var tooFar = new StokerDataset(loader, FieldSplit.positions(List.of(0), List.of(2)));
            assertThatThrownBy(() -> tooFar.getData(manager).iterator().next())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has 2 fields [0, 1]; there is no field 2");
            assertThat(loader.pool().lentBytes()).isZero();
        }
        try (DataLoader<Map<String, Tensor>> loader =
                     DataLoader.builder(TensorDataset.of(Map.of("image", x))).batchSize(4).build()) {
            var missing = new StokerDataset(loader, FieldSplit.names(List.of("image"), List.of("label")));
            assertThatThrownBy(() -> missing.getData(manager).iterator().next())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has no field 'label'; its fields are [image]");
        }
    }

    @Test
    void oneEpochIsIteratedOnce() {
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y)).batchSize(4).build()) {
            Iterable<Batch> epoch = new StokerDataset(loader).getData(manager);
            epoch.iterator();

            assertThatThrownBy(epoch::iterator)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("call getData again");
        }
    }

    private static long[] indices(Batch batch) {
        return batch.getIndices().stream().mapToLong(i -> (Long) i).toArray();
    }

    /** The rows of {@code t} at {@code rows}, gathered into a fresh tensor. */
    private Tensor rowsOf(Tensor t, long[] rows) {
        Tensor out = Tensor.allocate(arena, t.dtype(), t.shape().withFirst(rows.length));
        for (int r = 0; r < rows.length; r++) {
            out.select(r).copyFrom(t.select(rows[r]));
        }
        return out;
    }
}
