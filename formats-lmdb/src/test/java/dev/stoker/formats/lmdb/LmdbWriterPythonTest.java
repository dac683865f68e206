package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Python's lmdb (W8's reader) reads what LmdbWriter wrote, through src/test/python/read_lmdb.py.
 * Skipped where Debian's python3 with the lmdb package is missing (apt-get install python3-lmdb).
 */
class LmdbWriterPythonTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path SCRIPT = Path.of("src/test/python/read_lmdb.py");

    @TempDir
    Path dir;

    private static List<String> run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines;
        try (var reader = p.inputReader(StandardCharsets.UTF_8)) {
            lines = reader.lines().toList();
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("python timed out");
        }
        return p.exitValue() == 0 ? lines : List.of("exit " + p.exitValue(), String.join("\n", lines));
    }

    @Test
    void pythonsLmdbReadsWhatWeWrote() throws Exception {
        pythonReads(dir.resolve("env"), false);
    }

    @Test
    void pythonsLmdbReadsASingleFileEnvironmentWithSubdirFalse() throws Exception {
        pythonReads(dir.resolve("train.lmdb"), true);
    }

    private void pythonReads(Path env, boolean singleFile) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON), "no " + PYTHON);
        Assumptions.assumeTrue(run(PYTHON.toString(), "-c", "import lmdb").isEmpty(), "no lmdb package for " + PYTHON);

        Random rnd = new Random(8);
        List<byte[]> values = LmdbWriterTest.values(rnd, 60);
        int[] labels = rnd.ints(values.size(), 0, 256).toArray();
        try (LmdbWriter w = LmdbWriter.builder(env).singleFile(singleFile).mapSize(64 << 10).commitEvery(7, 1 << 20)
                .build()) {
            for (int i = 0; i < values.size(); i++) {
                w.append(values.get(i), labels[i]);
            }
            w.commit();
        }

        List<String> expected = new ArrayList<>();
        expected.add("len " + values.size());
        expected.add("labels " + IntStream.of(labels).mapToObj(Integer::toString).collect(Collectors.joining(" ")));
        for (int i = 0; i < values.size(); i++) {
            CRC32 crc = new CRC32();
            crc.update(values.get(i));
            expected.add(i + " " + values.get(i).length + " " + crc.getValue());
        }
        assertThat(run(PYTHON.toString(), SCRIPT.toString(), env.toString())).containsExactlyElementsOf(expected);
    }
}
