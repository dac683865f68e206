package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CaseJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded damage to every way a tar shard reaches Stoker besides a plain map ({@link
 * TarCorruptionTest} has those): gzip (bombs too), streams that end, fail or stall, {@code pipe:}
 * commands that misbehave, {@code .idx} sidecars, tensor members, and cached copies damaged on
 * disk. Each case reads cleanly (the samples written) or fails with the area's documented
 * exception naming its input; never another exception, never a hang, never more memory than the
 * bound. The cases of an area run in a JVM of their own with a small heap ({@link TarFuzzRunner}),
 * so that an allocation from a bad size shows as an OutOfMemoryError and a hang as that case.
 *
 * <p>{@code -Dstoker.tar.fuzzScale=N} multiplies the cases (1).
 */
class TarInputFuzzTest {
    private static final int SCALE = Integer.getInteger("stoker.tar.fuzzScale", 1);
    private static final Duration HANG_GUARD = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"gzip, 360", "stream, 400", "pipe, 35", "index, 1000", "tensor, 600", "cache, 48"})
    void damagedInputReadsCleanlyOrFailsNamingIt(String area, int cases) throws Exception {
        int n = cases * SCALE;
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> lines = CaseJvm.run(dir, area, TarFuzzRunner.class, List.of("-Xmx192m"),
                List.of(work.toString(), area, "0", Integer.toString(n)), HANG_GUARD);
        assertThat(lines.stream().filter(l -> l.startsWith("BAD ")).toList())
                .as("cases that neither read cleanly nor failed with the documented exception naming their input")
                .isEmpty();
        assertThat(lines.stream().filter(l -> l.startsWith("done ")).count()).isEqualTo(n);
        // Both outcomes occur: the damage is neither always harmless nor always caught.
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.endsWith(" clean"));
        assertThat(lines).anyMatch(l -> l.startsWith("done ") && l.contains(" refused "));
        lines.stream().filter(l -> l.startsWith("summary ")).forEach(System.out::println);
    }
}
