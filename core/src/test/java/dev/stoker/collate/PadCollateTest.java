package dev.stoker.collate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PadCollateTest {
    private final TestMemory memory = TestMemory.arena();
    private final Arena samples = Arena.ofConfined();

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

    @Test
    void padsToTheLongestAndKeepsLengths() {
        List<long[]> batch = List.of(new long[] {1, 2, 3}, new long[] {4}, new long[] {}, new long[] {5, 6});
        PaddedBatch b = PadCollate.of().collate(batch, memory);
        assertThat(b.padded().dtype()).isEqualTo(DType.I64);
        assertThat(b.padded().shape()).isEqualTo(Shape.of(4, 3));
        assertThat(b.padded().toLongArray()).containsExactly(1, 2, 3, 4, 0, 0, 0, 0, 0, 5, 6, 0);
        assertThat(b.lengths().dtype()).isEqualTo(DType.I64);
        assertThat(b.lengths().shape()).isEqualTo(Shape.of(4));
        assertThat(b.lengths().toLongArray()).containsExactly(3, 1, 0, 2);
        assertThat(b.rest()).isNull();
        assertThat(b.size()).isEqualTo(4);
        assertThat(b.maxLength()).isEqualTo(3);
    }

    @Test
    void padValueIsWrittenInTheSequencesType() {
        PadCollate pad = PadCollate.builder().padValue(-100).build();
        PaddedBatch ints = pad.collate(List.of(new int[] {7}, new int[] {8, 9, 10}), memory);
        assertThat(ints.padded().dtype()).isEqualTo(DType.I32);
        assertThat(ints.padded().toIntArray()).containsExactly(7, -100, -100, 8, 9, 10);

        PaddedBatch floats = PadCollate.builder().padValue(-1.5).build()
                .collate(List.of(new float[] {1, 2, 3, 4, 5}, new float[] {6}), memory);
        assertThat(floats.padded().dtype()).isEqualTo(DType.F32);
        assertThat(floats.padded().toFloatArray()).containsExactly(1, 2, 3, 4, 5, 6, -1.5f, -1.5f, -1.5f, -1.5f);

        PaddedBatch doubles = PadCollate.builder().padValue(Double.NaN).build()
                .collate(List.of(new double[] {1}, new double[] {2, 3}), memory);
        assertThat(doubles.padded().toDoubleArray()).containsExactly(1, Double.NaN, 2, 3);

        PaddedBatch shorts = pad.collate(List.of(new short[] {1, 2}, new short[] {3}), memory);
        assertThat(shorts.padded().dtype()).isEqualTo(DType.I16);
        assertThat(shorts.padded().toLongArray()).containsExactly(1, 2, 3, -100);

        PaddedBatch bytes = PadCollate.builder().padValue(255).build()
                .collate(List.of(new byte[] {(byte) 200}, new byte[] {1, 2}), memory);
        assertThat(bytes.padded().dtype()).isEqualTo(DType.U8);
        assertThat(bytes.padded().toLongArray()).containsExactly(200, 255, 1, 2);
    }

    @Test
    void zeroPaddingOverwritesWhateverWasInTheMemory() {
        // TestMemory fills new tensors with 0x5A: every pad byte must have been written
        PaddedBatch b = PadCollate.of().collate(List.of(new double[] {1}, new double[] {2, 3, 4, 5, 6, 7, 8}), memory);
        assertThat(b.padded().toDoubleArray()).containsExactly(1, 0, 0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void tensorsArePaddedAlongTheFirstAxis() {
        Tensor a = Tensor.allocate(samples, DType.F32, Shape.of(2, 3));
        a.copyFrom(new float[] {1, 2, 3, 4, 5, 6});
        Tensor b = Tensor.allocate(samples, DType.F32, Shape.of(4, 3));
        float[] bv = new float[12];
        Arrays.fill(bv, 9);
        b.copyFrom(bv);
        Tensor c = Tensor.allocate(samples, DType.F32, Shape.of(0, 3));
        PaddedBatch out = PadCollate.builder().padValue(-1).build().collate(List.of(a, b, c), memory);
        assertThat(out.padded().shape()).isEqualTo(Shape.of(3, 4, 3));
        assertThat(out.lengths().toLongArray()).containsExactly(2, 4, 0);
        float[] v = out.padded().toFloatArray();
        assertThat(Arrays.copyOfRange(v, 0, 12)).containsExactly(1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1, -1);
        assertThat(Arrays.copyOfRange(v, 12, 24)).containsOnly(9f);
        assertThat(Arrays.copyOfRange(v, 24, 36)).containsOnly(-1f);
    }

    @Test
    void tensorsMustAgreeBeyondTheFirstAxis() {
        Tensor a = Tensor.allocate(samples, DType.F32, Shape.of(2, 3));
        Tensor b = Tensor.allocate(samples, DType.F32, Shape.of(5, 4));
        assertThatThrownBy(() -> PadCollate.of().collate(List.of(a, b), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageContaining("sample 0 has shape [2, 3] but sample 1 has shape [5, 4]")
                .hasMessageContaining("only the first dimension may differ");
        Tensor c = Tensor.allocate(samples, DType.F64, Shape.of(2, 3));
        assertThatThrownBy(() -> PadCollate.of().collate(List.of(a, c), memory))
                .hasMessageContaining("sample 0 is f32 but sample 1 is f64");
        Tensor scalar = Tensor.allocate(samples, DType.F32, Shape.scalar());
        assertThatThrownBy(() -> PadCollate.of().collate(List.of(scalar), memory))
                .hasMessageContaining("scalar");
    }

    /** The W4 workload: token sequences with a label, padded with their lengths. */
    record Sequence(long[] tokens, long label) {}

    @Test
    void tokenSequencesWithLabels() {
        SplittableRandom random = new SplittableRandom(4);
        List<Sequence> batch = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            long[] tokens = random.longs(random.nextInt(1, 50), 1, 30_000).toArray();
            batch.add(new Sequence(tokens, i % 7));
        }
        Collate<Sequence> collate = PadCollate.builder().field("tokens").build()::collate;
        PaddedBatch b = (PaddedBatch) collate.collate(batch, memory);

        int maxLen = batch.stream().mapToInt(s -> s.tokens().length).max().orElseThrow();
        assertThat(b.padded().shape()).isEqualTo(Shape.of(64, maxLen));
        assertThat(b.padded().dtype()).isEqualTo(DType.I64);
        assertThat(b.lengths().shape()).isEqualTo(Shape.of(64));
        Tensor labels = b.tensor("label");
        assertThat(labels.shape()).isEqualTo(Shape.of(64));
        assertThat(labels.dtype()).isEqualTo(DType.I64);
        assertThat(items(((Map<?, ?>) b.rest()).keySet())).containsExactly("label");
        for (int i = 0; i < 64; i++) {
            long[] tokens = batch.get(i).tokens();
            long[] row = b.padded().select(i).toLongArray();
            assertThat(b.lengths().getLong(i)).isEqualTo(tokens.length);
            assertThat(Arrays.copyOf(row, tokens.length)).containsExactly(tokens);
            assertThat(Arrays.copyOfRange(row, tokens.length, maxLen)).isEqualTo(new long[maxLen - tokens.length]);
            assertThat(labels.getLong(i)).isEqualTo(i % 7);
        }
    }

    @Test
    void mapSamplesNameTheSequenceByKey() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("ids", new int[] {1, 2});
        a.put("weight", 0.5);
        a.put("text", "ab");
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("ids", new int[] {3});
        b.put("weight", 2.0);
        b.put("text", "c");
        PaddedBatch out = PadCollate.builder().field("ids").build().collate(List.of(a, b), memory);
        assertThat(out.padded().toIntArray()).containsExactly(1, 2, 3, 0);
        assertThat(items(((Map<?, ?>) out.rest()).keySet())).containsExactly("weight", "text");
        assertThat(out.tensor("weight").toDoubleArray()).containsExactly(0.5, 2.0);
        assertThat(items(((Map<?, ?>) out.rest()).get("text"))).containsExactly("ab", "c");
        assertThatThrownBy(() -> out.tensor("text")).hasMessageContaining("not a tensor");
        assertThatThrownBy(() -> out.tensor("ids")).hasMessageContaining("no field 'ids'");
    }

    @Test
    void listSamplesNameTheSequenceByPosition() {
        List<List<Object>> batch = List.of(List.of(5L, new long[] {1, 2, 3}, true), List.of(6L, new long[] {4}, false));
        PaddedBatch out = PadCollate.builder().position(1).padValue(-1).build().collate(batch, memory);
        assertThat(out.padded().toLongArray()).containsExactly(1, 2, 3, 4, -1, -1);
        assertThat(out.lengths().toLongArray()).containsExactly(3, 1);
        assertThat((List<?>) out.rest()).hasSize(2);
        assertThat(out.tensor(0).toLongArray()).containsExactly(5, 6);
        assertThat(out.tensor(1).toByteArray()).containsExactly(1, 0);
        assertThatThrownBy(() -> out.tensor("x")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void errorsNameTheFieldAndTheSample() {
        Map<String, Object> ok = Map.of("ids", new long[] {1});
        Map<String, Object> missing = Map.of("other", new long[] {1});
        assertThatThrownBy(() -> PadCollate.builder().field("ids").build().collate(List.of(ok, missing), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageStartingWith("cannot pad field 'ids': sample 1 has no key 'ids'");

        assertThatThrownBy(() -> PadCollate.builder().field("tokenz").build()
                .collate(List.of(new Sequence(new long[1], 1)), memory))
                .hasMessageContaining("has no component 'tokenz'")
                .hasMessageContaining("[tokens, label]");

        assertThatThrownBy(() -> PadCollate.builder().field("ids").build()
                .collate(List.of(Map.of("ids", new long[1]), Map.of("ids", new int[1])), memory))
                .hasMessage("cannot pad field 'ids': sample 0 is a long[] but sample 1 is a int[]");

        assertThatThrownBy(() -> PadCollate.of().collate(List.of(new Sequence(new long[1], 1)), memory))
                .hasMessageContaining("cannot pad the samples: sample 0 is a")
                .hasMessageContaining("field(...)");

        assertThatThrownBy(() -> PadCollate.builder().field("ids").build()
                .collate(Arrays.asList(Map.of("ids", new long[1]), null), memory))
                .hasMessageContaining("sample 1 is null");

        assertThatThrownBy(() -> PadCollate.builder().position(3).build()
                .collate(List.of(List.of(new long[1])), memory))
                .hasMessageContaining("sample 0 has only 1 elements");
    }

    @Test
    void aPadValueTheTypeCannotHoldIsRejected() {
        assertThatThrownBy(() -> PadCollate.builder().padValue(-1).build()
                .collate(List.of(new byte[] {1}, new byte[] {}), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageContaining("pad value -1.0 is not a u8 value");
        assertThatThrownBy(() -> PadCollate.builder().padValue(0.5).build()
                .collate(List.of(new long[] {1}), memory))
                .hasMessageContaining("not a i64 value");
    }

    @Test
    void fieldAndPositionExcludeEachOther() {
        assertThatThrownBy(() -> PadCollate.builder().field("a").position(0).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> PadCollate.builder().position(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void restIsCollatedWithTheChosenCollate() {
        DefaultCollate custom = DefaultCollate.builder().register(Long.class, (values, ctx) -> "longs").build();
        PaddedBatch out = PadCollate.builder().field("tokens").collateRestWith(custom).build()
                .collate(List.of(new Sequence(new long[] {1}, 2)), memory);
        assertThat(((Map<?, ?>) out.rest()).get("label")).isEqualTo("longs");
    }
}
