package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.HalfFloats;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever MdsWriter writes, MdsDataset reads back as it was given: seeded random columns,
 * values, shard size limits and compressions.
 */
class MdsWriterRoundTripTest {
    private static final List<String> ENCODINGS = List.of("int", "int8", "uint8", "int16", "uint16", "int32",
            "uint32", "int64", "uint64", "float16", "float32", "float64", "str", "bytes", "json", "str_int",
            "ndarray:float32:2,3", "ndarray", "ndarray:int16", "ndarray:uint8:300", "list[jpeg]", "jpeg_array");
    private static final List<DType> ARRAY_TYPES = List.of(DType.U8, DType.I8, DType.U16, DType.I16, DType.F16,
            DType.I32, DType.F32, DType.I64, DType.F64);

    @TempDir
    Path tmp;

    @Test
    void whatIsWrittenReadsBackTheSame() {
        for (int trial = 0; trial < 40; trial++) {
            Random random = new Random(trial);
            Map<String, String> columns = new HashMap<>();
            for (String e : ENCODINGS) {
                if (random.nextInt(3) == 0) {
                    columns.put("c_" + e.replaceAll("\\W", "_"), e);
                }
            }
            if (columns.isEmpty()) {
                columns.put("only", "bytes");
            }
            long limit = List.of(0L, 300L, 2000L, 1L << 20).get(random.nextInt(4));
            String compression = new String[] {null, "zstd", "gz:1"}[random.nextInt(3)];
            int n = random.nextInt(60);
            Path dir = tmp.resolve("t" + trial);
            String what = "trial " + trial + ": " + columns + ", limit " + limit + ", " + compression + ", " + n;
            try (Arena arena = Arena.ofConfined()) {
                List<Map<String, Object>> written = new ArrayList<>();
                MdsWriter.Builder b = MdsWriter.builder(dir).sizeLimit(limit).compression(compression).hashes("sha1");
                columns.forEach(b::column);
                try (MdsWriter w = b.open()) {
                    for (int i = 0; i < n; i++) {
                        Map<String, Object> s = new HashMap<>();
                        columns.forEach((name, e) -> s.put(name, value(e, random, arena)));
                        w.write(s);
                        written.add(s);
                    }
                    w.commit();
                }
                try (MdsDataset ds = MdsDataset.open(dir, MdsOptions.defaults().verifyHashes(n > 0))) {
                    assertThat(ds.size()).as(what).isEqualTo(n);
                    for (int i = 0; i < n; i++) {
                        MdsSample s = ds.get(i);
                        for (Map.Entry<String, String> c : columns.entrySet()) {
                            assertSame(what + ", sample " + i + ", " + c.getKey(), c.getValue(),
                                    written.get(i).get(c.getKey()), s, c.getKey());
                        }
                    }
                }
            }
        }
    }

    private static Object value(String encoding, Random r, Arena arena) {
        return switch (encoding) {
            case "int", "int64" -> r.nextLong();
            case "int8" -> (long) (byte) r.nextInt();
            case "uint8" -> (long) r.nextInt(256);
            case "int16" -> (long) (short) r.nextInt();
            case "uint16" -> (long) r.nextInt(65536);
            case "int32" -> (long) r.nextInt();
            case "uint32" -> Integer.toUnsignedLong(r.nextInt());
            case "uint64" -> r.nextLong() >>> 1; // what longValue reads back: below 2^63
            case "float16" -> HalfFloats.f16ToFloat(HalfFloats.floatToF16((float) r.nextGaussian()));
            case "float32" -> (float) r.nextGaussian();
            case "float64" -> r.nextGaussian();
            case "str" -> "text é " + r.nextInt() + "x".repeat(r.nextInt(40));
            case "json" -> "{\"k\": " + r.nextInt() + "}";
            case "str_int" -> Long.toString(r.nextLong());
            case "bytes" -> bytes(r, r.nextInt(100));
            case "ndarray:float32:2,3" -> tensor(arena, r, DType.F32, 2, 3);
            case "ndarray" -> tensor(arena, r, ARRAY_TYPES.get(r.nextInt(ARRAY_TYPES.size())), 1 + r.nextInt(3),
                    1 + r.nextInt(300));
            case "ndarray:int16" -> tensor(arena, r, DType.I16, 1 + r.nextInt(20));
            case "ndarray:uint8:300" -> tensor(arena, r, DType.U8, 300);
            case "list[jpeg]", "jpeg_array" -> {
                List<byte[]> items = new ArrayList<>();
                for (int k = r.nextInt(4); k > 0; k--) {
                    items.add(bytes(r, r.nextInt(50)));
                }
                yield items;
            }
            default -> throw new IllegalArgumentException(encoding);
        };
    }

    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static Tensor tensor(Arena arena, Random r, DType dtype, long... dims) {
        Tensor t = Tensor.allocate(arena, dtype, Shape.of(dims));
        byte[] b = bytes(r, (int) t.byteSize());
        if (dtype.isFloatingPoint()) { // no NaN payloads: compare bits of ordinary numbers
            for (long i = 0; i < t.elements(); i++) {
                t.setDouble(i, r.nextGaussian());
            }
        } else {
            MemorySegment.copy(b, 0, t.segment(), ValueLayout.JAVA_BYTE, 0, b.length);
        }
        return t;
    }

    private static void assertSame(String what, String encoding, Object written, MdsSample s, String column) {
        switch (encoding) {
            case "float16", "float32", "float64" ->
                    assertThat(s.doubleValue(column)).as(what).isEqualTo(((Number) written).doubleValue());
            case "str", "json" -> assertThat(s.string(column)).as(what).isEqualTo(written);
            case "str_int" -> assertThat(s.longValue(column)).as(what).isEqualTo(Long.parseLong((String) written));
            case "bytes" -> assertThat(s.bytes(column)).as(what).isEqualTo(written);
            case "list[jpeg]", "jpeg_array" -> {
                @SuppressWarnings("unchecked")
                List<byte[]> items = (List<byte[]>) written;
                List<MemorySegment> read = s.items(column);
                assertThat(read).as(what).hasSameSizeAs(items);
                for (int k = 0; k < items.size(); k++) {
                    assertThat(read.get(k).toArray(ValueLayout.JAVA_BYTE)).as(what + " item " + k).isEqualTo(items.get(k));
                }
            }
            default -> {
                if (written instanceof Tensor t) {
                    Tensor read = s.tensor(column);
                    assertThat(read.dtype()).as(what).isEqualTo(t.dtype());
                    assertThat(read.shape()).as(what).isEqualTo(t.shape());
                    assertThat(read.segment().toArray(ValueLayout.JAVA_BYTE)).as(what)
                            .isEqualTo(t.segment().toArray(ValueLayout.JAVA_BYTE));
                } else {
                    assertThat(s.longValue(column)).as(what).isEqualTo(((Number) written).longValue());
                }
            }
        }
    }
}
