package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MdsWriterTest {
    @TempDir
    Path tmp;

    /** The golden folder: the same 20 samples written by Streaming's MDSWriter (make_writer_golden.py). */
    static Path golden() throws URISyntaxException {
        return Path.of(MdsWriterTest.class.getResource("/mds/writer-golden/index.json").toURI()).getParent();
    }

    /** Sample {@code k} of make_writer_golden.py, as Java values. */
    static Map<String, Object> goldenSample(Arena arena, int k, byte[] jpg) {
        Tensor fixed = Tensor.allocate(arena, DType.F32, Shape.of(2, 3));
        for (int e = 0; e < 6; e++) {
            fixed.setDouble(e, (float) (k + e / 10.0));
        }
        Tensor dyn = Tensor.allocate(arena, k % 2 == 0 ? DType.I16 : DType.U8, Shape.of(k % 3 + 1, 300 * (k % 2) + 2));
        for (int e = 0; e < dyn.elements(); e++) {
            dyn.setLong(e, e % 100);
        }
        Tensor dt = Tensor.allocate(arena, DType.I64, Shape.of(k + 1));
        for (int e = 0; e <= k; e++) {
            dt.setLong(e, -e * 1_000_000_000_000L);
        }
        Map<String, Object> s = new HashMap<>();
        s.put("i", k * 1_000_000_007L - 5);
        s.put("s", "héllo " + k);
        s.put("f", k * 0.5f);
        s.put("h", k * 0.25f);
        s.put("u", 65000 + k);
        s.put("b", new byte[] {(byte) k, 0, (byte) 255});
        s.put("fixed", fixed);
        s.put("dyn", dyn);
        s.put("dt", dt);
        s.put("j", "{\"k\": " + k + "}");
        s.put("l", List.of(jpg, jpg));
        s.put("ja", List.of(jpg));
        return s;
    }

    static MdsWriter.Builder goldenColumns(Path dir) {
        return MdsWriter.builder(dir).column("i", "int").column("s", "str").column("f", "float32")
                .column("h", "float16").column("u", "uint16").column("b", "bytes")
                .column("fixed", "ndarray:float32:2,3").column("dyn", "ndarray").column("dt", "ndarray:int64")
                .column("j", "json").column("l", "list[jpeg]").column("ja", "jpeg_array");
    }

    @Test
    void writesTheSameBytesAsStreamingsWriter() throws Exception {
        Path golden = golden();
        byte[] jpg = Files.readAllBytes(golden.resolve("../tiny.jpg"));
        Path out = tmp.resolve("out");
        try (Arena arena = Arena.ofConfined();
             MdsWriter w = goldenColumns(out).hashes("sha1", "md5").sizeLimit(6000).open()) {
            for (int k = 0; k < 20; k++) {
                w.write(goldenSample(arena, k, jpg));
            }
            w.commit();
        }
        assertThat(names(out)).isEqualTo(names(golden));
        for (String name : names(golden)) {
            assertThat(Files.readAllBytes(out.resolve(name))).as(name).isEqualTo(Files.readAllBytes(golden.resolve(name)));
        }
    }

    @Test
    void aShardEndsBeforeTheSampleThatWouldPassTheLimitAndNoneIsEmpty() throws IOException {
        Path out = tmp.resolve("out");
        try (MdsWriter w = MdsWriter.builder(out).column("x", "bytes").sizeLimit(1000).open()) {
            w.write(Map.of("x", new byte[5000])); // alone above the limit: a shard of its own
            for (int i = 0; i < 10; i++) {
                w.write(Map.of("x", new byte[300]));
            }
            w.commit();
        }
        String index = Files.readString(out.resolve("index.json"));
        assertThat(index).contains("\"samples\": 1,").doesNotContain("\"samples\": 0,");
        try (Stream<Path> files = Files.list(out)) {
            for (Path shard : files.filter(p -> p.toString().endsWith(".mds")).toList()) {
                long size = Files.size(shard);
                assertThat(size <= 1000 || size > 5000).as(shard + " is " + size + " bytes").isTrue();
            }
        }
        assertThat(names(out)).noneMatch(n -> n.startsWith(".")); // nothing left aside
    }

    @Test
    void compressesWholeShardsAndRecordsBothSizes() throws IOException {
        for (String c : List.of("zstd", "zstd:19", "gz", "gz:1")) {
            Path out = tmp.resolve(c.replace(':', '-'));
            try (MdsWriter w = MdsWriter.builder(out).column("x", "str").compression(c).open()) {
                for (int i = 0; i < 100; i++) {
                    w.write(Map.of("x", "the same text again and again " + i));
                }
                w.commit();
            }
            String ext = c.startsWith("zstd") ? "zstd" : "gz";
            assertThat(names(out)).containsExactly("index.json", "shard.00000.mds." + ext);
            String index = Files.readString(out.resolve("index.json"));
            assertThat(index).contains("\"compression\": \"" + c + "\"", "\"basename\": \"shard.00000.mds\"",
                    "\"basename\": \"shard.00000.mds." + ext + "\"");
            assertThat(Files.size(out.resolve("shard.00000.mds." + ext))).isLessThan(3000);
        }
    }

    @Test
    void refusesValuesThatDoNotFitTheirColumnNamingSampleAndColumn() {
        Path out = tmp.resolve("out");
        try (Arena arena = Arena.ofConfined();
             MdsWriter w = MdsWriter.builder(out).column("a", "ndarray:float32:2,3").column("n", "int").open()) {
            Tensor wrongShape = Tensor.allocate(arena, DType.F32, Shape.of(3, 2));
            Tensor wrongType = Tensor.allocate(arena, DType.I32, Shape.of(2, 3));
            Tensor right = Tensor.allocate(arena, DType.F32, Shape.of(2, 3));
            assertThatThrownBy(() -> w.write(Map.of("a", wrongShape, "n", 1)))
                    .hasMessageContaining("sample 0").hasMessageContaining("'a'").hasMessageContaining("shape");
            assertThatThrownBy(() -> w.write(Map.of("a", wrongType, "n", 1))).hasMessageContaining("int32");
            assertThatThrownBy(() -> w.write(Map.of("a", right))).hasMessageContaining("no value for column 'n'");
            assertThatThrownBy(() -> w.write(Map.of("a", right, "n", 1, "extra", 2))).hasMessageContaining("'extra'");
            assertThatThrownBy(() -> w.write(Map.of("a", right, "n", "7"))).hasMessageContaining("number");
            w.write(Map.of("a", right, "n", 1));
            assertThat(w.samples()).isEqualTo(1); // the refused ones wrote nothing
            w.commit();
        }
    }

    @Test
    void refusesOptionsItCannotHonour() throws IOException {
        assertThatThrownBy(() -> MdsWriter.builder(tmp).column("x", "float128"))
                .hasMessageContaining("unknown encoding 'float128'");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).column("x", "ndarray:uint32:4"))
                .hasMessageContaining("uint32"); // no Tensor holds it
        assertThatThrownBy(() -> MdsWriter.builder(tmp).column("x", "ndarray:float32:2,0"))
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).column("x", "int").column("x", "str"))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).compression("br")).hasMessageContaining("zstd or gz");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).compression("zstd:23")).hasMessageContaining("1 to 22");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).hashes("xxh64")).hasMessageContaining("not in the JDK");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).sizeLimit(1L << 32)).hasMessageContaining("32-bit");
        assertThatThrownBy(() -> MdsWriter.builder(tmp.resolve("none")).open()).hasMessageContaining("at least one column");
        Files.writeString(tmp.resolve("old.txt"), "x");
        assertThatThrownBy(() -> MdsWriter.builder(tmp).column("x", "int").open()).hasMessageContaining("not empty");
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
