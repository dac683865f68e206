package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.SamplePolicy;
import dev.stoker.loader.SkippedSample;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every way a member can fail its field, each with a message that names the shard, the key, the
 * member and what was wrong; a bad sample skipped and counted under {@link SamplePolicy#SKIP};
 * the builder's checks.
 */
class TarTensorErrorsTest {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    private static String badShard() {
        return Fixtures.tar("tensors-bad.tar").toString();
    }

    /** What fill threw for each sample of the bad shard (null: it filled). */
    private static Map<String, TarSampleException> fillEach(TarTensorStream ds) {
        Map<String, TarSampleException> out = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined(); SampleStream<TarSample> s = ds.open(ONE)) {
            List<Tensor> tensors = new ArrayList<>();
            for (SampleLayout.Field f : ds.layout().fields()) {
                tensors.add(Tensor.allocate(arena, f.dtype(), f.shape().prepend(1)));
            }
            BatchSlots slots = new BatchSlots(ds.layout(), tensors);
            while (s.hasNext()) {
                TarSample sample = s.next();
                try {
                    ds.fill(sample, slots.slot(0));
                    out.put(sample.key(), null);
                } catch (TarSampleException e) {
                    out.put(sample.key(), e);
                }
            }
        }
        return out;
    }

    @Test
    void eachBadMemberIsNamedWithWhatWasWrong() {
        String shard = badShard();
        Map<String, TarSampleException> errors =
                fillEach(TensorShards.fields(TarShardDataset.builder(shard).build()).build());
        assertThat(errors).containsOnlyKeys("000100", "000101", "000102", "000103", "000104", "000105", "000106",
                "000107", "000108");
        assertThat(errors.get("000100")).isNull();
        assertThat(errors.get("000108")).isNull();
        String at = "shard " + shard + ", sample \"";
        assertThat(errors.get("000101")).hasMessage(at + "000101\", member .cls (field label): missing; the sample"
                + " has .x.npy, .y.npy, .t.npy, .emb");
        assertThat(errors.get("000102")).hasMessage(at + "000102\", member .x.npy (field x): the array is <f8 (f64)"
                + " of shape [2, 3], but the field is f32 of shape [2, 3]");
        assertThat(errors.get("000103")).hasMessage(at + "000103\", member .x.npy (field x): the array is <f4 (f32)"
                + " of shape [3, 2], but the field is f32 of shape [2, 3]");
        assertThat(errors.get("000104")).hasMessage(at + "000104\", member .cls (field label): \"seven\" is not a"
                + " decimal integer (expected text such as \"7\" or \"-3\")");
        assertThat(errors.get("000105")).hasMessage(at + "000105\", member .emb (field emb): 6 bytes, but the field"
                + " is f16 of shape [4]: 8 bytes of raw little-endian elements");
        assertThat(errors.get("000106").getMessage()).startsWith(at + "000106\", member .x.npy (field x): not a .npy"
                + " array Stoker reads: truncated: shape [2, 3] of <f4 needs 24 bytes of data");
        assertThat(errors.get("000106").getCause()).isInstanceOf(dev.stoker.formats.npy.NpyFormatException.class);
        assertThat(errors.get("000107")).hasMessage(at + "000107\", member .cls (field label): 99999999999999999999"
                + " is out of the range of i64 (-9223372036854775808 to 9223372036854775807)");
        TarSampleException missing = errors.get("000101");
        assertThat(missing.url()).isEqualTo(shard);
        assertThat(missing.key()).isEqualTo("000101");
        assertThat(missing.extension()).isEqualTo("cls");
    }

    @Test
    void underSkipABadSampleIsLeftOutAndCountedAndTheRestArrive() {
        TarTensorStream ds = TensorShards.fields(TarShardDataset.builder(badShard()).build()).build();
        for (int workers : new int[] {0, 2}) {
            List<Integer> seen = new ArrayList<>();
            DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(4).numWorkers(workers)
                    .onBadSample(SamplePolicy.SKIP).build();
            try (loader) {
                for (Batch b : loader) {
                    try (b) {
                        TensorShards.assertRows(b);
                        seen.addAll(TensorShards.ids(b));
                    }
                }
                assertThat(seen).as("%d workers", workers).containsExactly(100, 108);
                assertThat(loader.stats().skippedSamples()).isEqualTo(7);
                assertThat(loader.stats().lastSkipped()).extracting(SkippedSample::message)
                        .allMatch(m -> m.startsWith("TarSampleException: shard " + badShard() + ", sample \"00010"))
                        .anyMatch(m -> m.contains("\"000105\", member .emb"));
            }
            assertThat(loader.pool().stats().lentBytes()).isZero();
            assertThat(loader.pool().stats().reservedBytes()).isZero();
        }
    }

    @Test
    void underFailTheBatchFailsNamingTheSample() {
        TarTensorStream ds = TensorShards.fields(TarShardDataset.builder(badShard()).build()).build();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(4).build()) {
            BatchIterator it = loader.iterator();
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e.getCause()).isInstanceOf(TarSampleException.class);
            assertThat(e).hasMessageContaining("sample \"000101\", member .cls (field label): missing");
        }
    }

    // ---- integer text, on heap segments as a streamed shard gives them

    private static TarSample cls(String text) {
        return cls(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static TarSample cls(byte[] bytes) {
        return new TarSample("k", "mem://s.tar", Map.of("cls", MemorySegment.ofArray(bytes)));
    }

    private static long integer(DType dtype, TarSample sample) {
        TarTensorStream ds = TarTensorStream.builder(ctx -> SampleStream.of(List.<TarSample>of().iterator()))
                .integer("label", "cls", dtype).build();
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Tensor.allocate(arena, dtype, Shape.of(1));
            ds.fill(sample, new BatchSlots(ds.layout(), List.of(t)).slot(0));
            return t.getLong(0);
        }
    }

    private static String integerError(DType dtype, TarSample sample) {
        TarSampleException e = catchThrowableOfType(TarSampleException.class, () -> integer(dtype, sample));
        assertThat(e).as("no error for %s", sample).isNotNull();
        assertThat(e.getMessage()).startsWith("shard mem://s.tar, sample \"k\", member .cls (field label): ");
        return e.getMessage().substring("shard mem://s.tar, sample \"k\", member .cls (field label): ".length());
    }

    @Test
    void integerTextIsDecimalWithWhitespaceAroundAndASign() {
        assertThat(integer(DType.I64, cls("7"))).isEqualTo(7);
        assertThat(integer(DType.I64, cls(" \t-12\r\n"))).isEqualTo(-12);
        assertThat(integer(DType.I64, cls("+5\n"))).isEqualTo(5);
        assertThat(integer(DType.I64, cls("007"))).isEqualTo(7);
        assertThat(integer(DType.I64, cls("9223372036854775807"))).isEqualTo(Long.MAX_VALUE);
        assertThat(integer(DType.I64, cls("-9223372036854775808"))).isEqualTo(Long.MIN_VALUE);
        assertThat(integer(DType.U8, cls("255"))).isEqualTo(255);
        assertThat(integer(DType.I32, cls("-2147483648"))).isEqualTo(Integer.MIN_VALUE);
        assertThat(integer(DType.U16, cls("65535"))).isEqualTo(65535);
    }

    @Test
    void badIntegerTextSaysWhatItIs() {
        assertThat(integerError(DType.I64, cls(""))).isEqualTo("empty; expected decimal integer text such as \"7\"");
        assertThat(integerError(DType.I64, cls(" \n"))).isEqualTo("only whitespace; expected decimal integer text"
                + " such as \"7\"");
        assertThat(integerError(DType.I64, cls("-"))).startsWith("\"-\" is not a decimal integer");
        assertThat(integerError(DType.I64, cls("1 2"))).startsWith("\"1 2\" is not a decimal integer");
        assertThat(integerError(DType.I64, cls("0x10"))).startsWith("\"0x10\" is not a decimal integer");
        assertThat(integerError(DType.I64, cls("3.0"))).startsWith("\"3.0\" is not a decimal integer");
        assertThat(integerError(DType.I64, cls(new byte[] {'1', (byte) 0xD9, (byte) 0xA3})))
                .startsWith("\"1\\xd9\\xa3\" is not a decimal integer");
        assertThat(integerError(DType.I64, cls("9223372036854775808"))).isEqualTo("9223372036854775808 is out of"
                + " the range of i64 (-9223372036854775808 to 9223372036854775807)");
        assertThat(integerError(DType.I64, cls("-9223372036854775809"))).startsWith("-9223372036854775809 is out of"
                + " the range of i64");
        assertThat(integerError(DType.I64, cls("123456789012345678901"))).isEqualTo("\"123456789012345678901\" is"
                + " 21 characters, more than an integer of i64 has");
        assertThat(integerError(DType.U8, cls("256"))).isEqualTo("256 is out of the range of u8 (0 to 255)");
        assertThat(integerError(DType.U8, cls("-1"))).isEqualTo("-1 is out of the range of u8 (0 to 255)");
        assertThat(integerError(DType.I32, cls("2147483648"))).startsWith("2147483648 is out of the range of i32");
        assertThat(integerError(DType.I64, cls(" ".repeat(300) + "1"))).isEqualTo("301 bytes, too long for integer"
                + " text (at most 20 characters, with whitespace around them)");
    }

    // ---- the builder

    private static TarTensorStream.Builder builder() {
        return TarTensorStream.builder(TarShardDataset.builder(badShard()).build());
    }

    @Test
    void theBuilderRefusesWhatCannotWork() {
        assertThatThrownBy(() -> builder().build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no fields: declare at least one with npy(...), integer(...) or raw(...)");
        assertThatThrownBy(() -> builder().integer("label", "cls").raw("label", "emb", DType.F16, Shape.of(4)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the field name 'label' is used twice: label: i64 [] from .cls and label: f16 [4] from .emb");
        assertThatThrownBy(() -> builder().npy("x", ".npy", DType.F32, Shape.of(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field x: the member's extension is given without its leading dot")
                .hasMessageContaining("not \".npy\"");
        assertThatThrownBy(() -> builder().integer("label", "a/cls")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"a/cls\" is not an extension");
        assertThatThrownBy(() -> builder().integer(" ", "cls")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a field needs a name, not ' '");
        assertThatThrownBy(() -> builder().integer("label", "cls", DType.F32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field label: integer text is read into an integer dtype (i8, u8, i16, u16, i32, i64),"
                        + " not f32");
        assertThatThrownBy(() -> builder().npy("x", "npy", DType.BF16, Shape.of(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NumPy has no bfloat16 dtype");
        assertThatThrownBy(() -> TarTensorStream.builder(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("source");
    }
}
