package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CorruptionFuzz;
import dev.stoker.testing.FuzzSubject;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of seeded corruptions of valid environments (five written by Python's lmdb, two of
 * them with values overwritten and deleted over many transactions, one by lmdbjava in W8's layout): each must read cleanly (wrong value bytes are fine where only value
 * bytes were hit) or fail with an {@link LmdbException} naming the environment; nothing else, no
 * crash, no hang. The cases run in a JVM of their own ({@link LmdbFuzzSubject} on the shared runner), so a crash shows
 * up as this test failing at the case that crashed, not as a dead test run.
 *
 * <p>{@code -Dstoker.lmdb.fuzzCases=N} sets the cases per base (2000);
 * {@code -Dstoker.lmdb.fuzzTrusted=true} opens without the structural check, to see what it
 * prevents: the case JVM then dies in liblmdb within the first few cases.
 */
class LmdbCorruptionFuzzTest {
    private static final int CASES_PER_BASE = Integer.getInteger("stoker.lmdb.fuzzCases", 2000); // 6 bases

    @TempDir
    Path dir;

    @Test
    void corruptedEnvironmentsReadCleanlyOrFailWithLmdbException() throws Exception {
        String mode = Boolean.getBoolean("stoker.lmdb.fuzzTrusted") ? ":trusted" : ""; // shows what the check prevents
        List<String> bases = Stream.of("small", "nolen", "tree", "overwritten", "churn", "w8").map(b -> b + mode).toList();
        // overwritten: overflow runs counted whole, freed pages; churn: a freelist reused over 40 transactions
        CorruptionFuzz.Result r = CorruptionFuzz.run(dir, LmdbFuzzSubject.class,
                Path.of("src/test/resources/lmdb").toAbsolutePath(), bases, CASES_PER_BASE, "512m");
        // both outcomes occur: the damage is neither always harmless nor always caught at open
        assertThat(r.counts().get(FuzzSubject.Outcome.CLEAN)).isPositive();
        assertThat(r.counts().get(FuzzSubject.Outcome.REFUSED_OPEN)).isPositive();
    }
}
