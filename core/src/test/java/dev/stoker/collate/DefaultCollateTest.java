package dev.stoker.collate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DefaultCollateTest {
    private final TestMemory memory = TestMemory.arena();
    private final Arena samples = Arena.ofConfined();
    private final DefaultCollate collate = DefaultCollate.instance();

    /** The elements of a collection, typed for AssertJ. */
    static List<Object> items(Object collection) {
        assertThat(collection).isInstanceOf(java.util.Collection.class);
        return new ArrayList<>((java.util.Collection<?>) collection);
    }

    @AfterEach
    void close() {
        memory.close();
        samples.close();
    }

    private Tensor tensor(DType dtype, Shape shape, double start) {
        Tensor t = Tensor.allocate(samples, dtype, shape);
        for (long i = 0; i < t.elements(); i++) {
            t.setDouble(i, start + i);
        }
        return t;
    }

    private static Tensor asTensor(Object o) {
        assertThat(o).isInstanceOf(Tensor.class);
        return (Tensor) o;
    }

    @Test
    void tensorsStackIntoANewLeadingDimension() {
        List<Tensor> batch = List.of(tensor(DType.F32, Shape.of(2, 3), 0), tensor(DType.F32, Shape.of(2, 3), 100),
                tensor(DType.F32, Shape.of(2, 3), 200));
        Tensor out = asTensor(collate.collate(batch, memory));
        assertThat(out.dtype()).isEqualTo(DType.F32);
        assertThat(out.shape()).isEqualTo(Shape.of(3, 2, 3));
        assertThat(out.toFloatArray()).containsExactly(0, 1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105,
                200, 201, 202, 203, 204, 205);
    }

    @Test
    void stackedTensorIsACopyNotAView() {
        Tensor a = tensor(DType.I32, Shape.of(4), 1);
        Tensor out = asTensor(collate.collate(List.of(a, a), memory));
        a.setLong(0, 999);
        assertThat(out.getLong(0)).isEqualTo(1);
        assertThat(out.segment().address()).isNotEqualTo(a.segment().address());
    }

    @Test
    void everyTensorDtypeStacksBitForBit() {
        for (DType dtype : DType.values()) {
            Tensor a = tensor(dtype, Shape.of(3), 0);
            Tensor b = tensor(dtype, Shape.of(3), 1);
            Tensor out = asTensor(collate.collate(List.of(a, b), memory));
            assertThat(out.dtype()).as(dtype.name()).isEqualTo(dtype);
            assertThat(out.shape()).isEqualTo(Shape.of(2, 3));
            assertThat(out.select(0).segment().mismatch(a.segment())).as(dtype.name()).isEqualTo(-1);
            assertThat(out.select(1).segment().mismatch(b.segment())).as(dtype.name()).isEqualTo(-1);
        }
    }

    @Test
    void scalarTensorsStackIntoAVector() {
        Tensor a = tensor(DType.F64, Shape.scalar(), 1.5);
        Tensor b = tensor(DType.F64, Shape.scalar(), -2.5);
        Tensor out = asTensor(collate.collate(List.of(a, b), memory));
        assertThat(out.shape()).isEqualTo(Shape.of(2));
        assertThat(out.toDoubleArray()).containsExactly(1.5, -2.5);
    }

    @Test
    void primitiveArraysBecomeTensorsOfTheirType() {
        Tensor f = asTensor(collate.collate(List.of(new float[] {1.5f, 2}, new float[] {3, 4}), memory));
        assertThat(f.dtype()).isEqualTo(DType.F32);
        assertThat(f.shape()).isEqualTo(Shape.of(2, 2));
        assertThat(f.toFloatArray()).containsExactly(1.5f, 2, 3, 4);

        Tensor d = asTensor(collate.collate(List.of(new double[] {0.1}, new double[] {0.2}, new double[] {0.3}), memory));
        assertThat(d.dtype()).isEqualTo(DType.F64);
        assertThat(d.shape()).isEqualTo(Shape.of(3, 1));
        assertThat(d.toDoubleArray()).containsExactly(0.1, 0.2, 0.3);

        Tensor l = asTensor(collate.collate(List.of(new long[] {Long.MAX_VALUE, -1}, new long[] {Long.MIN_VALUE, 7}), memory));
        assertThat(l.dtype()).isEqualTo(DType.I64);
        assertThat(l.toLongArray()).containsExactly(Long.MAX_VALUE, -1, Long.MIN_VALUE, 7);

        Tensor i = asTensor(collate.collate(List.of(new int[] {1, -2, 3}, new int[] {Integer.MIN_VALUE, 5, 6}), memory));
        assertThat(i.dtype()).isEqualTo(DType.I32);
        assertThat(i.shape()).isEqualTo(Shape.of(2, 3));
        assertThat(i.toIntArray()).containsExactly(1, -2, 3, Integer.MIN_VALUE, 5, 6);

        Tensor s = asTensor(collate.collate(List.of(new short[] {-3, 4}, new short[] {Short.MAX_VALUE, 0}), memory));
        assertThat(s.dtype()).isEqualTo(DType.I16);
        assertThat(s.toLongArray()).containsExactly(-3, 4, Short.MAX_VALUE, 0);

        Tensor b = asTensor(collate.collate(List.of(new boolean[] {true, false}, new boolean[] {false, true}), memory));
        assertThat(b.dtype()).isEqualTo(DType.BOOL);
        assertThat(b.toByteArray()).containsExactly(1, 0, 0, 1);
    }

    @Test
    void bytesAreUnsigned() {
        Tensor u = asTensor(collate.collate(List.of(new byte[] {(byte) 255, 0, 7}, new byte[] {(byte) 128, 1, 2}), memory));
        assertThat(u.dtype()).isEqualTo(DType.U8);
        assertThat(u.shape()).isEqualTo(Shape.of(2, 3));
        assertThat(u.toLongArray()).containsExactly(255, 0, 7, 128, 1, 2);
    }

    @Test
    void emptyArraysGiveAnEmptyRow() {
        Tensor t = asTensor(collate.collate(List.of(new float[0], new float[0]), memory));
        assertThat(t.shape()).isEqualTo(Shape.of(2, 0));
        assertThat(t.elements()).isZero();
    }

    @Test
    void boxedScalarsFollowPyTorchsTypes() {
        Tensor d = asTensor(collate.collate(List.of(1.25, -3.5), memory));
        assertThat(d.dtype()).isEqualTo(DType.F64);
        assertThat(d.shape()).isEqualTo(Shape.of(2));
        assertThat(d.toDoubleArray()).containsExactly(1.25, -3.5);

        Tensor f = asTensor(collate.collate(List.of(1.5f, 2.5f), memory));
        assertThat(f.dtype()).isEqualTo(DType.F32);
        assertThat(f.toFloatArray()).containsExactly(1.5f, 2.5f);

        Tensor l = asTensor(collate.collate(List.of(Long.MAX_VALUE, -4L), memory));
        assertThat(l.dtype()).isEqualTo(DType.I64);
        assertThat(l.toLongArray()).containsExactly(Long.MAX_VALUE, -4);

        for (List<? extends Number> ints : List.of(List.of(3, -4), List.of((short) 3, (short) -4), List.of((byte) 3, (byte) -4))) {
            Tensor t = asTensor(collate.collate(ints, memory));
            assertThat(t.dtype()).as(ints.getFirst().getClass().getSimpleName()).isEqualTo(DType.I64);
            assertThat(t.toLongArray()).containsExactly(3, -4);
        }

        Tensor b = asTensor(collate.collate(List.of(true, false, true), memory));
        assertThat(b.dtype()).isEqualTo(DType.BOOL);
        assertThat(b.toByteArray()).containsExactly(1, 0, 1);
    }

    @Test
    void stringsStayAList() {
        Object out = collate.collate(List.of("cat", new StringBuilder("dog"), "emu"), memory);
        assertThat(out).isInstanceOf(List.class);
        assertThat(items(out)).containsExactly("cat", "dog", "emu");
        assertThat(memory.allocated()).isEmpty();
    }

    record Sample(Tensor image, long label, String name) {}

    @Test
    void recordsBecomeMapsByComponent() {
        List<Sample> batch = List.of(new Sample(tensor(DType.F32, Shape.of(2, 2), 0), 3, "a"),
                new Sample(tensor(DType.F32, Shape.of(2, 2), 10), 5, "b"));
        Object out = collate.collate(batch, memory);
        assertThat(out).isInstanceOf(Map.class);
        Map<?, ?> map = (Map<?, ?>) out;
        assertThat(items(map.keySet())).containsExactly("image", "label", "name");
        Tensor images = asTensor(map.get("image"));
        assertThat(images.shape()).isEqualTo(Shape.of(2, 2, 2));
        assertThat(images.toFloatArray()).containsExactly(0, 1, 2, 3, 10, 11, 12, 13);
        Tensor labels = asTensor(map.get("label"));
        assertThat(labels.dtype()).isEqualTo(DType.I64);
        assertThat(labels.toLongArray()).containsExactly(3, 5);
        assertThat(items(map.get("name"))).containsExactly("a", "b");
    }

    private record Inner(float[] xs, boolean flag) {}

    private record Outer(Inner inner, List<Object> pair, Map<String, Object> extra) {}

    @Test
    void nestedRecordsMapsAndListsCollateRecursively() {
        List<Outer> batch = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("weight", (double) i / 2);
            extra.put("ids", new int[] {i, i + 1});
            batch.add(new Outer(new Inner(new float[] {i, -i}, i % 2 == 0), List.of((long) i, "s" + i), extra));
        }
        Map<?, ?> out = (Map<?, ?>) collate.collate(batch, memory);
        assertThat(items(out.keySet())).containsExactly("inner", "pair", "extra");

        Map<?, ?> inner = (Map<?, ?>) out.get("inner");
        Tensor xs = asTensor(inner.get("xs"));
        assertThat(xs.shape()).isEqualTo(Shape.of(4, 2));
        assertThat(xs.toFloatArray()).containsExactly(0, 0, 1, -1, 2, -2, 3, -3);
        assertThat(asTensor(inner.get("flag")).toByteArray()).containsExactly(1, 0, 1, 0);

        List<?> pair = (List<?>) out.get("pair");
        assertThat(pair).hasSize(2);
        assertThat(asTensor(pair.get(0)).toLongArray()).containsExactly(0, 1, 2, 3);
        assertThat(items(pair.get(1))).containsExactly("s0", "s1", "s2", "s3");

        Map<?, ?> extra = (Map<?, ?>) out.get("extra");
        assertThat(asTensor(extra.get("weight")).toDoubleArray()).containsExactly(0, 0.5, 1, 1.5);
        Tensor ids = asTensor(extra.get("ids"));
        assertThat(ids.shape()).isEqualTo(Shape.of(4, 2));
        assertThat(ids.toIntArray()).containsExactly(0, 1, 1, 2, 2, 3, 3, 4);
    }

    @Test
    void listsAreTuplesCollatedByPosition() {
        List<List<Object>> batch = List.of(List.of(new float[] {1, 2}, 7L), List.of(new float[] {3, 4}, 8L));
        List<?> out = (List<?>) collate.collate(batch, memory);
        assertThat(out).hasSize(2);
        assertThat(asTensor(out.get(0)).toFloatArray()).containsExactly(1, 2, 3, 4);
        assertThat(asTensor(out.get(1)).toLongArray()).containsExactly(7, 8);
    }

    @Test
    void mapsKeepTheFirstSamplesKeyOrder() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("z", 1L);
        a.put("a", 2L);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("a", 20L);
        b.put("z", 10L);
        Map<?, ?> out = (Map<?, ?>) collate.collate(List.of(a, b), memory);
        assertThat(items(out.keySet())).containsExactly("z", "a");
        assertThat(asTensor(out.get("z")).toLongArray()).containsExactly(1, 10);
        assertThat(asTensor(out.get("a")).toLongArray()).containsExactly(2, 20);
    }

    @Test
    void worksAsACollateOfAnySampleType() {
        Collate<float[]> arrays = DefaultCollate.instance()::collate;
        Collate<Object> objects = DefaultCollate.instance();
        List<float[]> batch = List.of(new float[] {1}, new float[] {2});
        assertThat(asTensor(arrays.collate(batch, memory)).toFloatArray()).containsExactly(1, 2);
        assertThat(asTensor(objects.collate(List.of(1L, 2L), memory)).toLongArray()).containsExactly(1, 2);
    }

    @Test
    void stacksIntoPooledMemory() {
        try (BufferPool pool = BufferPool.builder().budgetBytes(1 << 20).build();
                TestMemory pooled = TestMemory.pooled(pool)) {
            Tensor out = asTensor(collate.collate(List.of(new float[] {1, 2}, new float[] {3, 4}), pooled));
            assertThat(pool.lentCount()).isEqualTo(1);
            assertThat(out.toFloatArray()).containsExactly(1, 2, 3, 4);
        }
    }

    record Point(float x, float y) {}

    @Test
    void registeredCollatorsExtendAndOverride() {
        Collator points = (values, ctx) -> {
            Tensor t = ctx.memory().allocate(DType.F32, Shape.of(values.size(), 2));
            for (int i = 0; i < values.size(); i++) {
                Point p = (Point) values.get(i);
                t.setFloat(2L * i, p.x());
                t.setFloat(2L * i + 1, p.y());
            }
            return t;
        };
        DefaultCollate custom = DefaultCollate.builder()
                .register(Point.class, points)
                .register(Double.class, (values, ctx) -> "doubles:" + values.size())
                .build();
        Tensor t = asTensor(custom.collate(List.of(new Point(1, 2), new Point(3, 4)), memory));
        assertThat(t.shape()).isEqualTo(Shape.of(2, 2));
        assertThat(t.toFloatArray()).containsExactly(1, 2, 3, 4);
        assertThat(custom.collate(List.of(1.0, 2.0), memory)).isEqualTo("doubles:2");
        // registrations apply inside containers too, and the default instance is untouched
        Map<?, ?> nested = (Map<?, ?>) custom.collate(List.of(Map.of("p", new Point(5, 6))), memory);
        assertThat(asTensor(nested.get("p")).toFloatArray()).containsExactly(5, 6);
        assertThat(DefaultCollate.instance().collate(List.of(new Point(1, 2)), memory)).isInstanceOf(Map.class);
    }

    interface Shape2 {}

    record Square(double side) implements Shape2 {}

    @Test
    void assignableLookupPrefersTheLatestRegistration() {
        DefaultCollate custom = DefaultCollate.builder()
                .register(Shape2.class, (values, ctx) -> "shapes")
                .build();
        // Square is both a Record and a Shape2: the later registration (Shape2) wins
        assertThat(custom.collate(List.of(new Square(1), new Square(2)), memory)).isEqualTo("shapes");
    }

    @Test
    void userCollatorsRecurseThroughTheContext() {
        record Pair(long left, float[] right) {}
        Collator pairs = (values, ctx) -> List.of(
                ctx.collateField("left", values.stream().map(v -> ((Pair) v).left()).toList()),
                ctx.collateField("right", values.stream().map(v -> ((Pair) v).right()).toList()));
        DefaultCollate custom = DefaultCollate.builder().register(Pair.class, pairs).build();
        List<?> out = (List<?>) custom.collate(List.of(new Pair(1, new float[] {1}), new Pair(2, new float[] {2})), memory);
        assertThat(asTensor(out.get(0)).toLongArray()).containsExactly(1, 2);
        assertThat(asTensor(out.get(1)).toFloatArray()).containsExactly(1, 2);
    }

    @Test
    void writesEveryByteOfTheOutput() {
        // TestMemory fills new tensors with garbage: nothing of it may remain
        Tensor out = asTensor(collate.collate(List.of(new short[] {0, 0, 0}, new short[] {0, 0, 0}), memory));
        assertThat(out.toLongArray()).containsOnly(0L);
        Tensor bools = asTensor(collate.collate(List.of(false, false), memory));
        assertThat(bools.toByteArray()).containsOnly((byte) 0);
        Tensor floats = asTensor(collate.collate(List.of(0f, 0f, 0f), memory));
        assertThat(floats.getFloat(2)).isCloseTo(0f, within(0f));
    }
}
