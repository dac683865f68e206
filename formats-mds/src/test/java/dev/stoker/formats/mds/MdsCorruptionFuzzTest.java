package dev.stoker.formats.mds;

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
 * Seeded corruptions of the sets Streaming's writer made (index.json, raw, zstd and gz shards):
 * each must read cleanly (damage confined to value bytes reads as other values) or fail with an
 * {@link MdsFormatException} naming the dataset; nothing else, no crash, no hang, no memory blow-up
 * (the case JVM has 256 MiB). The cases run in a JVM of their own ({@link MdsFuzzRunner}), so a crash
 * shows up as this test failing at the case that crashed.
 *
 * <p>{@code -Dstoker.mds.fuzzCases=N} sets the cases per base (300).
 */
class MdsCorruptionFuzzTest {
    private static final int CASES_PER_BASE = Integer.getInteger("stoker.mds.fuzzCases", 300);
    private static final List<String> BASES = List.of("scalars", "scalars_zstd", "scalars_gz", "images", "zero_shard");

    @TempDir
    Path dir;

    @Test
    void corruptedSetsReadCleanlyOrFailWithMdsFormatException() throws IOException, InterruptedException {
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> args = new ArrayList<>(List.of(work.toString(), MdsFixtures.ROOT.toString(),
                Integer.toString(CASES_PER_BASE)));
        args.addAll(BASES);
        List<String> lines = CaseJvm.run(dir, "mds", MdsFuzzRunner.class, List.of("-Xmx256m"), args,
                Duration.ofSeconds(600));
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD ")).toList();
        assertThat(bad).as("cases that neither read cleanly nor failed with an MdsFormatException naming the set")
                .isEmpty();
        List<String> summaries = lines.stream().filter(l -> l.startsWith("summary ")).toList();
        assertThat(summaries).hasSize(BASES.size()).allSatisfy(s -> assertThat(s).contains("cases=" + CASES_PER_BASE));
        assertThat(lines.stream().filter(l -> l.startsWith("done ")).count()).isEqualTo((long) BASES.size() * CASES_PER_BASE);
        // All three outcomes occur: the damage is neither always harmless nor always caught at open.
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" clean"));
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" refused-open"));
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" refused-read"));
        summaries.forEach(System.out::println);
    }
}
