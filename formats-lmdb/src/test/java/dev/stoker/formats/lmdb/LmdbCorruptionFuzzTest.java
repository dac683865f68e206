package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CaseJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of seeded corruptions of valid environments (five written by Python's lmdb, two of
 * them with values overwritten and deleted over many transactions, one by lmdbjava in W8's layout): each must read cleanly (wrong value bytes are fine where only value
 * bytes were hit) or fail with an {@link LmdbException} naming the environment; nothing else, no
 * crash, no hang. The cases run in a JVM of their own ({@link LmdbFuzzRunner}), so a crash shows
 * up as this test failing at the case that crashed, not as a dead test run.
 *
 * <p>{@code -Dstoker.lmdb.fuzzCases=N} sets the cases per base (2000);
 * {@code -Dstoker.lmdb.fuzzTrusted=true} opens without the structural check, to see what it
 * prevents: the case JVM then dies in liblmdb within the first few cases.
 */
class LmdbCorruptionFuzzTest {
    private static final int CASES_PER_BASE = Integer.getInteger("stoker.lmdb.fuzzCases", 2000); // 6 bases
    private static final long HANG_GUARD_SECONDS = 300;

    @TempDir
    Path dir;

    @Test
    void corruptedEnvironmentsReadCleanlyOrFailWithLmdbException() throws Exception {
        List<String> lines = runCases(CASES_PER_BASE);
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD ")).toList();
        assertThat(bad).as("cases that neither read cleanly nor failed with an LmdbException naming the path")
                .isEmpty();
        List<String> summaries = lines.stream().filter(l -> l.startsWith("summary ")).toList();
        assertThat(summaries).hasSize(6).allSatisfy(s -> assertThat(s).contains("cases=" + CASES_PER_BASE));
        long done = lines.stream().filter(l -> l.startsWith("done ")).count();
        assertThat(done).isEqualTo(6L * CASES_PER_BASE);
        // Both outcomes occur: the damage is neither always harmless nor always caught at open.
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" clean"));
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" refused-open"));
        summaries.forEach(System.out::println);
    }

    private List<String> runCases(int cases) throws IOException, InterruptedException {
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> args = new ArrayList<>(List.of(work.toString(),
                Path.of("src/test/resources/lmdb").toAbsolutePath().toString(), Integer.toString(cases)));
        if (Boolean.getBoolean("stoker.lmdb.fuzzTrusted")) {
            args.add("trusted"); // without the check: shows what it prevents (this test then fails)
        }
        return CaseJvm.run(dir, "lmdb", LmdbFuzzRunner.class, List.of(), args, Duration.ofSeconds(HANG_GUARD_SECONDS));
    }
}
