package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line index: built once and reused, refused for a changed file or a damaged sidecar, exact on every kind of line end. */
class JsonlIndexTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void lineEndsOfEveryKind() throws Exception {
        Path p = write("a.jsonl", "{\"text\":\"1\"}\r\n{\"text\":\"2\"}\n\n{\"text\":\"4\"}");
        try (JsonlDataset<String> ds = JsonlDataset.field(p, "text")) {
            assertThat(ds.size()).isEqualTo(4);
            assertThat(ds.get(0)).isEqualTo("1");
            assertThat(ds.get(1)).isEqualTo("2");
            assertThat(ds.get(3)).isEqualTo("4");
            assertThatThrownBy(() -> ds.get(2)).isInstanceOf(JsonlLineException.class)
                    .hasMessageContaining(p + ": line 3: not a JSON object");
            assertThat(ds.bytes(2)).isEmpty();
        }
        Path empty = write("e.jsonl", "");
        try (JsonlDataset<byte[]> ds = JsonlDataset.lines(empty)) {
            assertThat(ds.size()).isZero();
        }
    }

    @Test
    void aBadLineIsNamedByFileAndLine() throws Exception {
        Path p = write("b.jsonl", "{\"text\":\"ok\"}\n{\"text\": 3}\n{\"id\": 1}\n{\"text\":\"a\" \"b\"}\n");
        try (JsonlDataset<String> ds = JsonlDataset.field(p, "text")) {
            assertThat(ds.get(0)).isEqualTo("ok");
            assertThatThrownBy(() -> ds.get(1)).isInstanceOf(JsonlLineException.class)
                    .hasMessage(p + ": line 2: field \"text\" is not a string");
            assertThatThrownBy(() -> ds.get(2)).hasMessage(p + ": line 3: the object has no field \"text\"");
            assertThatThrownBy(() -> ds.get(3)).hasMessage(p + ": line 4: not a JSON object: column 13: expected '}', found '\"'")
                    .satisfies(e -> assertThat(((JsonlLineException) e).line()).isEqualTo(4));
        }
    }

    @Test
    void theSidecarIsBuiltOnceAndReused() throws Exception {
        Path p = write("c.jsonl", "{\"text\":\"x\"}\n");
        JsonlDataset.lines(p).close();
        Path sidecar = JsonlDataset.sidecarOf(p);
        FileTime built = Files.getLastModifiedTime(sidecar);
        Files.setLastModifiedTime(sidecar, FileTime.fromMillis(built.toMillis() - 60_000));
        JsonlDataset.lines(p).close();
        assertThat(Files.getLastModifiedTime(sidecar).toMillis()).isEqualTo(built.toMillis() - 60_000);
        try (var s = Files.list(dir)) {
            assertThat(s.map(f -> f.getFileName().toString()).toList()).containsExactlyInAnyOrder("c.jsonl", "c.jsonl.lines");
        }
    }

    @Test
    void theSidecarHasThePermissionsOfAnyNewFile() throws Exception {
        Path p = write("p.jsonl", "{\"text\":\"x\"}\n");
        JsonlDataset.lines(p).close();
        var plain = Files.getPosixFilePermissions(Files.createFile(dir.resolve("plain")));
        assertThat(Files.getPosixFilePermissions(JsonlDataset.sidecarOf(p))).isEqualTo(plain);
    }

    @Test
    void aChangedFileIsRefusedSayingWhat() throws Exception {
        Path p = write("d.jsonl", "{\"text\":\"x\"}\n");
        JsonlDataset.lines(p).close();
        FileTime t = Files.getLastModifiedTime(p);
        Files.writeString(p, "{\"text\":\"y\"}\n{\"text\":\"z\"}\n");
        assertThatThrownBy(() -> JsonlDataset.lines(p)).isInstanceOf(JsonlIndexException.class)
                .hasMessageContaining("indexes another version of " + p).hasMessageContaining("indexed at 13 bytes")
                .hasMessageContaining("now 26 bytes").hasMessageContaining("delete the sidecar");
        Files.writeString(p, "{\"text\":\"y\"}\n"); // same size, same time: only the bytes differ
        Files.setLastModifiedTime(p, t);
        assertThatThrownBy(() -> JsonlDataset.lines(p)).isInstanceOf(JsonlIndexException.class)
                .hasMessageContaining("its first bytes differ");
        JsonlDataset.index(p, JsonlDataset.sidecarOf(p)); // indexing again accepts it
        try (JsonlDataset<String> ds = JsonlDataset.field(p, "text")) {
            assertThat(ds.get(0)).isEqualTo("y");
        }
    }

    @Test
    void aDamagedSidecarIsRefused() throws Exception {
        Path p = write("e.jsonl", "{\"text\":\"x\"}\n{\"text\":\"y\"}\n");
        JsonlDataset.lines(p).close();
        Path sidecar = JsonlDataset.sidecarOf(p);
        byte[] good = Files.readAllBytes(sidecar);
        byte[] flipped = good.clone();
        flipped[50] ^= 1;
        Files.write(sidecar, flipped);
        assertThatThrownBy(() -> JsonlDataset.lines(p)).isInstanceOf(JsonlIndexException.class)
                .hasMessageContaining(sidecar + " fails its checksum");
        Files.write(sidecar, java.util.Arrays.copyOf(good, 30));
        assertThatThrownBy(() -> JsonlDataset.lines(p)).hasMessageContaining("not a whole line index");
        byte[] magic = good.clone();
        magic[0] = 'X';
        Files.write(sidecar, magic);
        assertThatThrownBy(() -> JsonlDataset.lines(p)).hasMessageContaining("does not start with STKJSONL");
    }

    @Test
    void aSeededFuzzOfTheSidecarOnlyReadsRightOrRefuses() throws Exception {
        Path p = write("f.jsonl", "{\"text\":\"a\"}\n{\"text\":\"bb\"}\n{\"text\":\"ccc\"}\n");
        Path sidecar = JsonlDataset.sidecarOf(p);
        JsonlDataset.lines(p).close();
        byte[] good = Files.readAllBytes(sidecar);
        SplittableRandom rnd = new SplittableRandom(18);
        for (int c = 0; c < 300; c++) {
            byte[] bad = good.clone();
            if (rnd.nextInt(4) == 0) {
                bad = java.util.Arrays.copyOf(bad, rnd.nextInt(bad.length + 10));
            } else {
                bad[rnd.nextInt(bad.length)] ^= (byte) rnd.nextInt(1, 256);
            }
            Files.write(sidecar, bad);
            try (JsonlDataset<String> ds = JsonlDataset.field(p, "text")) {
                assertThat(List.of(ds.get(0), ds.get(1), ds.get(2))).as("case %d", c).containsExactly("a", "bb", "ccc");
            } catch (JsonlIndexException e) {
                assertThat(e.getMessage()).contains(sidecar.toString());
            }
        }
    }

    @Test
    void aSidecarElsewhereServesAReadOnlyFolder() throws Exception {
        Path p = write("g.jsonl", "{\"text\":\"x\"}\n");
        Path side = Files.createDirectory(dir.resolve("side")).resolve("g.lines");
        try (JsonlDataset<String> ds = JsonlDataset.field(p, side, "text")) {
            assertThat(ds.get(0)).isEqualTo("x");
        }
        assertThat(Files.exists(side)).isTrue();
        assertThat(Files.exists(JsonlDataset.sidecarOf(p))).isFalse();
        Files.writeString(p, "{\"text\":\"more\"}\n", StandardOpenOption.APPEND);
        assertThatThrownBy(() -> JsonlDataset.field(p, side, "text")).isInstanceOf(JsonlIndexException.class);
    }
}
