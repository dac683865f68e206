package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.npy.NpyWriter;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random fields written by {@link ShardWriter} come out of a loader byte for byte: a {@code .npy}
 * member of any dtype and shape in either byte order, a raw member, an integer of any integer
 * dtype as text with whitespace around it; from mapped and from streamed shards, on 0 to 2 workers.
 */
class TarTensorPropertyTest {
    private static final DType[] NPY = {DType.BOOL, DType.U8, DType.I8, DType.I16, DType.U16, DType.I32, DType.I64,
        DType.F16, DType.F32, DType.F64};
    private static final DType[] INTEGER = {DType.U8, DType.I8, DType.I16, DType.U16, DType.I32, DType.I64};
    private static final String[] SPACE = {"", " ", "\n", "\t", " \r\n", "  "};

    @TempDir
    Path dir;

    /** What was written for one sample, in little-endian (native) order. */
    private record Written(byte[] array, byte[] raw, long label) {}

    @Test
    void randomFieldsComeOutByteForByte() {
        Random random = new Random(31);
        for (int trial = 0; trial < 16; trial++) {
            DType arrayType = NPY[random.nextInt(NPY.length)];
            Shape arrayShape = randomShape(random);
            DType rawType = DType.values()[random.nextInt(DType.values().length)];
            Shape rawShape = randomShape(random);
            DType labelType = INTEGER[random.nextInt(INTEGER.length)];
            int n = 1 + random.nextInt(60);
            List<Written> written = new ArrayList<>();
            String pattern = dir.resolve("P" + trial + "-%03d.tar").toString();
            List<String> shards = new ArrayList<>();
            boolean piped = random.nextBoolean();
            try (ShardWriter w = ShardWriter.builder(pattern).maxSamples(1 + random.nextInt(20)).build()) {
                for (int i = 0; i < n; i++) {
                    byte[] array = bytes(random, arrayType, arrayShape.elements());
                    byte[] raw = bytes(random, rawType, rawShape.elements());
                    long label = label(random, labelType);
                    String sign = label >= 0 && random.nextInt(4) == 0 ? "+" : "";
                    Map<String, byte[]> fields = new LinkedHashMap<>();
                    fields.put("id", Integer.toString(i).getBytes(StandardCharsets.US_ASCII));
                    fields.put("a.npy", npy(arrayType, arrayShape, array, random.nextBoolean()));
                    fields.put("bin", raw);
                    fields.put("cls", (SPACE[random.nextInt(SPACE.length)] + sign + label
                            + SPACE[random.nextInt(SPACE.length)]).getBytes(StandardCharsets.US_ASCII));
                    w.write(String.format("s%05d", i), fields);
                    written.add(new Written(array, raw, label));
                }
                w.commit();
                for (ShardWriter.ShardInfo s : w.shards()) {
                    shards.add(piped ? "pipe:cat '" + s.path() + "'" : s.path().toString());
                }
            }
            TarTensorStream ds = TarTensorStream.builder(TarShardDataset.builder(shards)
                            .shuffleShards(random.nextBoolean()).build())
                    .integer("id", "id", DType.I32)
                    .npy("a", "a.npy", arrayType, arrayShape)
                    .raw("r", "bin", rawType, rawShape)
                    .integer("label", "cls", labelType)
                    .build();
            int workers = random.nextInt(3);
            String what = "trial " + trial + ": " + ds.layout() + ", " + n + " samples, " + shards.size()
                    + (piped ? " piped" : " mapped") + " shards, " + workers + " workers";
            Set<Long> seen = new HashSet<>();
            DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(1 + random.nextInt(9)).numWorkers(workers)
                    .seed(trial).build();
            try (loader) {
                for (Batch b : loader) {
                    try (b) {
                        Tensor ids = b.tensor("id");
                        for (int r = 0; r < ids.shape().dim(0); r++) {
                            long i = ids.getLong(r);
                            Written expected = written.get((int) i);
                            assertThat(seen.add(i)).as(what).isTrue();
                            assertThat(bytesOf(b.tensor("a").select(r))).as(what + ", sample " + i)
                                    .containsExactly(expected.array());
                            assertThat(bytesOf(b.tensor("r").select(r))).as(what + ", sample " + i)
                                    .containsExactly(expected.raw());
                            assertThat(b.tensor("label").getLong(r)).as(what + ", sample " + i)
                                    .isEqualTo(expected.label());
                        }
                    }
                }
            }
            assertThat(seen).as(what).hasSize(n);
            assertThat(loader.pool().stats().lentBytes()).as(what).isZero();
        }
    }

    private static Shape randomShape(Random random) {
        long[] dims = new long[random.nextInt(4)];
        for (int d = 0; d < dims.length; d++) {
            dims[d] = 1 + random.nextInt(5);
        }
        return Shape.of(dims);
    }

    /** Random elements, little-endian; a bool is 0 or 1, as NumPy writes it. */
    private static byte[] bytes(Random random, DType dtype, long elements) {
        byte[] b = new byte[(int) (elements * dtype.byteSize())];
        random.nextBytes(b);
        if (dtype == DType.BOOL) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (b[i] & 1);
            }
        }
        return b;
    }

    private static long label(Random random, DType dtype) {
        return switch (dtype) {
            case U8 -> random.nextInt(256);
            case I8 -> random.nextInt(256) - 128;
            case I16 -> random.nextInt(1 << 16) - (1 << 15);
            case U16 -> random.nextInt(1 << 16);
            case I32 -> random.nextInt();
            default -> random.nextInt(8) == 0 ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                    : random.nextLong();
        };
    }

    /** A .npy file of {@code data} (little-endian), written big-endian when asked, as {@code '>f4'} would be. */
    private static byte[] npy(DType dtype, Shape shape, byte[] data, boolean bigEndian) {
        byte[] header = NpyWriter.header(dtype, shape);
        int width = dtype.byteSize();
        byte[] out = new byte[header.length + data.length];
        System.arraycopy(header, 0, out, 0, header.length);
        if (!bigEndian || width == 1) {
            System.arraycopy(data, 0, out, header.length, data.length);
            return out;
        }
        String text = new String(header, StandardCharsets.ISO_8859_1);
        int descr = text.indexOf("'<");
        out[descr + 1] = '>';
        for (int e = 0; e < data.length; e += width) {
            for (int k = 0; k < width; k++) {
                out[header.length + e + k] = data[e + width - 1 - k];
            }
        }
        return out;
    }

    private static byte[] bytesOf(Tensor t) {
        return t.segment().asSlice(0, t.byteSize()).toArray(ValueLayout.JAVA_BYTE);
    }
}
