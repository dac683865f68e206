package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Absent, empty, corrupt and truncated environments give an LmdbException naming the path, never a crash. */
class LmdbEnvironmentErrorsTest {
    @TempDir
    Path dir;

    private Path copyOfSmall() throws IOException {
        Path env = Files.createDirectories(dir.resolve("env"));
        Files.copy(LmdbDatasetTest.SMALL.resolve("data.mdb"), env.resolve("data.mdb"));
        return env;
    }

    @Test
    void absentPath() {
        Path absent = dir.resolve("nothing-here");
        assertThatThrownBy(() -> LmdbDataset.open(absent))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(absent.toString())
                .hasMessageContaining("no such file");
    }

    @Test
    void directoryWithoutDataFile() {
        assertThatThrownBy(() -> LmdbDataset.open(dir))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(dir.toString())
                .hasMessageContaining("data.mdb");
    }

    @Test
    void dataFileAloneOpensWithoutSubdir() throws IOException {
        Path env = copyOfSmall();
        try (LmdbDataset ds = LmdbDataset.open(env.resolve("data.mdb"))) {
            assertThat(ds.size()).isEqualTo(LmdbDatasetTest.N);
            assertThat(ds.get(2).value()).isEqualTo(LmdbDatasetTest.expected(2));
        }
    }

    @Test
    void randomBytesAreNotAnEnvironment() throws IOException {
        Path env = Files.createDirectories(dir.resolve("junk"));
        byte[] junk = new byte[12288];
        new Random(7).nextBytes(junk);
        Files.write(env.resolve("data.mdb"), junk);
        assertThatThrownBy(() -> LmdbDataset.open(env))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString());
    }

    @Test
    void emptyDataFile() throws IOException {
        Path env = Files.createDirectories(dir.resolve("empty"));
        Files.write(env.resolve("data.mdb"), new byte[0]);
        assertThatThrownBy(() -> LmdbDataset.open(env))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString());
    }

    @Test
    void truncatedDataFileIsRefusedBeforeAnyPageIsTouched() throws IOException {
        Path env = copyOfSmall();
        Path data = env.resolve("data.mdb");
        byte[] whole = Files.readAllBytes(data);
        Files.write(data, Arrays.copyOf(whole, whole.length - 4096));
        assertThatThrownBy(() -> LmdbDataset.open(env))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString());
    }

    @Test
    void valueSizePastTheEndOfTheFileIsRefused() throws IOException {
        // A leaf node is (size lo 16, size hi 16, flags 16, key size 16, key, value): raise the
        // size of key 000003's value to 16 MiB, far past the 12 KiB file. Copying it out would read
        // past the end of the map (SIGBUS); the reader must refuse it instead.
        Path env = copyOfSmall();
        Path data = env.resolve("data.mdb");
        byte[] bytes = Files.readAllBytes(data);
        byte[] key = "000003".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(bytes, key, 8192);
        assertThat(at).as("key 000003 in the data page").isGreaterThan(8192);
        int node = at - 8;
        assertThat(bytes[node + 6]).as("key size low byte").isEqualTo((byte) 6);
        bytes[node + 2] = 0;    // size hi = 0x0100: size = 16 MiB + lo
        bytes[node + 3] = 1;
        Files.write(data, bytes);
        // The structural check refuses the file at open, naming the page and the byte.
        assertThatThrownBy(() -> LmdbDataset.open(env))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString())
                .hasMessageContaining("page 2, byte " + node)
                .hasMessageContaining("runs past the end of the page");
        // Trusted, it opens; the copy's own check still refuses the value instead of reading past the map.
        try (LmdbEnvironment trusted = LmdbEnvironment.openTrusted(env)) {
            assertThat(trusted.get("000002")).isEqualTo(LmdbDatasetTest.expected(2));
            assertThatThrownBy(() -> trusted.get("000003"))
                    .isInstanceOf(LmdbException.class)
                    .hasMessageContaining(env.toString())
                    .hasMessageContaining("000003")
                    .hasMessageContaining("past the end");
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
