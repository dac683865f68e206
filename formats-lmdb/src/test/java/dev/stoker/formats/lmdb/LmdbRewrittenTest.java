package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Environments whose values were overwritten and deleted, as real LMDB leaves them (issue 16):
 * the check accepts them and every key reads exactly what Python's lmdb reads. Fixtures and their
 * expected.txt come from src/test/python/make_lmdb_rewritten_fixtures.py; the property test runs
 * its random workload over many seeds (skipped without Debian's python3-lmdb).
 */
class LmdbRewrittenTest {
    private static final Path FIXTURES = Path.of("src/test/resources/lmdb");
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path SCRIPT = Path.of("src/test/python/make_lmdb_rewritten_fixtures.py");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"overwritten", "deleted", "churn"})
    void readsWhatPythonsLmdbReads(String name) throws IOException {
        assertReadsAsPython(FIXTURES.resolve(name));
    }

    @Test
    void aValueOverwrittenInItsTransactionKeepsCountingItsWholeRun() throws IOException {
        // big01..big04 were 10,000 bytes (3 pages each) and overwritten in the same transaction:
        // 1 byte, 5000 and 100 bytes stay on their runs of 3; 20,000 bytes got a new run of 5.
        // The values' sizes need 4*3 + 1 + 2 + 5 + 1 = 21 pages; stat() says 26.
        LmdbVerifier.Summary s = LmdbVerifier.verify(FIXTURES.resolve("overwritten"),
                FIXTURES.resolve("overwritten/data.mdb"));
        assertThat(s.overflowPages()).isEqualTo(26);
        try (LmdbEnvironment env = LmdbEnvironment.open(FIXTURES.resolve("overwritten"))) {
            assertThat(env.get("big01")).containsExactly('y');
        }
    }

    @Test
    void randomWorkloadsOfPutsOverwritesAndDeletesReadAsPythonReadsThem() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON), "needs " + PYTHON);
        for (int seed = 1; seed <= 12; seed++) {
            Path env = dir.resolve("seed" + seed);
            Process p = new ProcessBuilder(PYTHON.toString(), SCRIPT.toString(), "--random", Integer.toString(seed),
                    env.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("python timed out");
            }
            Assumptions.assumeTrue(p.exitValue() == 0 || !out.contains("No module named 'lmdb'"),
                    "needs python3-lmdb");
            assertThat(p.exitValue()).as(out).isZero();
            assertReadsAsPython(env);
        }
    }

    /** Every entry of expected.txt reads the same bytes (size and SHA-256), and nothing more. */
    private static void assertReadsAsPython(Path env) throws IOException {
        List<String> lines = Files.readAllLines(env.resolve("expected.txt"));
        String[] stat = lines.getLast().split(" ");
        List<String> entries = lines.subList(0, lines.size() - 1);
        LmdbVerifier.Summary s = LmdbVerifier.verify(env, env.resolve("data.mdb"));
        assertThat(s.pageSize()).isEqualTo(Integer.parseInt(stat[1]));
        assertThat(s.depth()).isEqualTo(Integer.parseInt(stat[2]));
        assertThat(s.treePages()).isEqualTo(Long.parseLong(stat[3]) + Long.parseLong(stat[4]));
        assertThat(s.overflowPages()).isEqualTo(Long.parseLong(stat[5]));
        assertThat(s.entries()).isEqualTo(Long.parseLong(stat[6])).isEqualTo(entries.size());
        try (LmdbEnvironment e = LmdbEnvironment.open(env)) {
            assertThat(e.entries()).isEqualTo(entries.size());
            for (String line : entries) {
                String[] f = line.split(" ");
                byte[] value = e.get(HexFormat.of().parseHex(f[0]), f[0]);
                assertThat(value).as("%s: key %s", env, f[0]).isNotNull();
                assertThat(value.length).as("%s: key %s", env, f[0]).isEqualTo(Integer.parseInt(f[1]));
                assertThat(sha256(value)).as("%s: key %s", env, f[0]).isEqualTo(f[2]);
            }
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
