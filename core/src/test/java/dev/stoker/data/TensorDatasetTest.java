package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TensorDatasetTest {

    private static Tensor counting(Arena arena, DType dtype, long... dims) {
        Tensor t = Tensor.allocate(arena, dtype, Shape.of(dims));
        for (long i = 0; i < t.elements(); i++) {
            t.setLong(i, i % 100);
        }
        return t;
    }

    @Test
    void getReturnsViewsOfTheRows() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor images = counting(arena, DType.F32, 5, 2, 3);
            Tensor labels = counting(arena, DType.I64, 5);
            TensorDataset<List<Tensor>> ds = TensorDataset.of(images, labels);
            assertThat(ds.size()).isEqualTo(5);
            List<Tensor> s = ds.get(3);
            assertThat(s).hasSize(2);
            assertThat(s.get(0).shape()).isEqualTo(Shape.of(2, 3));
            assertThat(s.get(0).toFloatArray()).containsExactly(18, 19, 20, 21, 22, 23);
            assertThat(s.get(1).shape()).isEqualTo(Shape.scalar());
            assertThat(s.get(1).getLong(0)).isEqualTo(3);
            // a view: the dataset's memory, not a copy
            images.setFloat(18, -1);
            assertThat(s.get(0).getFloat(0)).isEqualTo(-1);
            assertThat(s.get(0).segment().address()).isEqualTo(images.segment().address() + 18 * 4);
            assertThat(ds.layout()).isEqualTo(SampleLayout.tuple(new SampleLayout.Field("0", DType.F32, Shape.of(2, 3)),
                    new SampleLayout.Field("1", DType.I64, Shape.scalar())));
        }
    }

    @Test
    void namedTensorsGiveMapsInOrder() {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Tensor> named = new LinkedHashMap<>();
            named.put("tokens", counting(arena, DType.I32, 4, 8));
            named.put("label", counting(arena, DType.U8, 4));
            TensorDataset<Map<String, Tensor>> ds = TensorDataset.of(named);
            Map<String, Tensor> s = ds.get(1);
            assertThat(List.copyOf(s.keySet())).isEqualTo(List.of("tokens", "label"));
            assertThat(s.get("tokens").toIntArray()).containsExactly(8, 9, 10, 11, 12, 13, 14, 15);
            assertThat(ds.layout().form()).isEqualTo(SampleLayout.Form.MAP);
            try (DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds).batchSize(3).build()) {
                try (Batch b = loader.iterator().next()) {
                    assertThat(b.tensor("tokens").shape()).isEqualTo(Shape.of(3, 8));
                    assertThat(b.tensor("label").shape()).isEqualTo(Shape.of(3));
                    assertThat(b.tensor("label").dtype()).isEqualTo(DType.U8);
                }
            }
        }
    }

    @Test
    void indicesOutsideAreRefusedByEveryPath() {
        try (Arena arena = Arena.ofConfined()) {
            TensorDataset<List<Tensor>> ds = TensorDataset.of(counting(arena, DType.I16, 3, 2));
            assertThatThrownBy(() -> ds.get(3)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessage("TensorDataset: index 3 is outside [0, 3)");
            assertThatThrownBy(() -> ds.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
            Tensor batch = Tensor.allocate(arena, DType.I16, Shape.of(2, 2));
            BatchSlots slots = new BatchSlots(ds.layout(), List.of(batch));
            assertThatThrownBy(() -> ds.fill(5, slots.slot(0))).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("index 5");
            assertThatThrownBy(() -> ds.fillBatch(new long[] {0, 7}, slots))
                    .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("index 7");
        }
    }

    @Test
    void badTensorsAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            assertThatThrownBy(() -> TensorDataset.of()).hasMessageContaining("at least one tensor");
            assertThatThrownBy(() -> TensorDataset.of(counting(arena, DType.F32, 4, 2), counting(arena, DType.I64, 5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("the tensors hold different numbers of samples: tensor 0 has 4 rows ([4, 2]), tensor 1"
                            + " has 5 ([5])");
            Tensor scalar = Tensor.allocate(arena, DType.F32, Shape.scalar());
            assertThatThrownBy(() -> TensorDataset.of(scalar)).hasMessageContaining("tensor 0 is a scalar");
            assertThat(TensorDataset.of(counting(arena, DType.F32, 0, 3)).size()).isZero();
        }
    }

    @Test
    void fillAndFillBatchGiveWhatCollateGives() {
        SplittableRandom rnd = new SplittableRandom(6);
        DType[] dtypes = DType.values();
        for (int trial = 0; trial < 40; trial++) {
            try (Arena arena = Arena.ofConfined(); BufferPool pool = BufferPool.builder().name("t").build()) {
                int n = rnd.nextInt(1, 30);
                List<Tensor> tensors = new ArrayList<>();
                for (int f = 0, count = rnd.nextInt(1, 4); f < count; f++) {
                    long[] dims = new long[rnd.nextInt(1, 4)];
                    dims[0] = n;
                    for (int d = 1; d < dims.length; d++) {
                        dims[d] = rnd.nextInt(1, 5);
                    }
                    Tensor t = Tensor.allocate(arena, dtypes[rnd.nextInt(dtypes.length)], Shape.of(dims));
                    for (long b = 0; b < t.byteSize(); b++) {
                        t.segment().set(ValueLayout.JAVA_BYTE, b, (byte) rnd.nextInt(t.dtype() == DType.BOOL ? 2 : 256));
                    }
                    tensors.add(t);
                }
                TensorDataset<List<Tensor>> ds = TensorDataset.of(tensors.toArray(new Tensor[0]));
                int batchSize = rnd.nextInt(1, 9);
                boolean dropLast = rnd.nextBoolean();
                try (DataLoader<List<Tensor>> fill = DataLoader.builder(ds).batchSize(batchSize).shuffle(true)
                        .seed(trial).dropLast(dropLast).pool(pool).build();
                     DataLoader<List<Tensor>> collate = DataLoader.builder(ds).batchSize(batchSize).shuffle(true)
                        .seed(trial).dropLast(dropLast).pool(pool).collate(DefaultCollate.instance()).build()) {
                    assertThat(bytesOf(fill)).isEqualTo(bytesOf(collate));
                }
                assertThat(pool.lentBytes()).isZero();
            }
        }
    }

    /** Each batch's indices, then each tensor's dtype, shape and bytes. */
    private static List<String> bytesOf(DataLoader<?> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                StringBuilder s = new StringBuilder(Arrays.toString(b.indices()));
                for (Object t : (List<?>) b.data()) {
                    Tensor tensor = (Tensor) t;
                    s.append(' ').append(tensor.dtype()).append(tensor.shape())
                            .append(Arrays.toString(tensor.segment().toArray(ValueLayout.JAVA_BYTE)));
                }
                out.add(s.toString());
            }
        }
        return out;
    }
}
