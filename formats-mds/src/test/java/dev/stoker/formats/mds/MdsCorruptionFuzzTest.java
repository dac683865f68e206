package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CorruptionFuzz;
import dev.stoker.testing.FuzzSubject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruptions of the sets Streaming's writer made (index.json, raw, zstd and gz shards):
 * each must read cleanly (damage confined to value bytes reads as other values) or fail with an
 * {@link MdsFormatException} naming the dataset; nothing else, no crash, no hang, no memory blow-up
 * (the case JVM has 256 MiB). The cases run in a JVM of their own ({@link MdsFuzzSubject} on the
 * shared runner), so a crash shows up as this test failing at the case that crashed.
 *
 * <p>{@code -Dstoker.mds.fuzzCases=N} sets the cases per base (300).
 */
class MdsCorruptionFuzzTest {
    private static final int CASES_PER_BASE = Integer.getInteger("stoker.mds.fuzzCases", 300);
    private static final List<String> BASES = List.of("scalars", "scalars_zstd", "scalars_gz", "images", "zero_shard");

    @TempDir
    Path dir;

    @Test
    void corruptedSetsReadCleanlyOrFailWithMdsFormatException() throws Exception {
        CorruptionFuzz.Result r = CorruptionFuzz.run(dir, MdsFuzzSubject.class, MdsFixtures.ROOT, BASES,
                CASES_PER_BASE, "256m").requireRefusals();
        // all three outcomes occur: the damage is neither always harmless nor always caught at open
        assertThat(r.counts().get(FuzzSubject.Outcome.CLEAN)).isPositive();
    }
}
