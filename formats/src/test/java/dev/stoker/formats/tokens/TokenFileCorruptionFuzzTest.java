package dev.stoker.formats.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CorruptionFuzz;
import dev.stoker.testing.FuzzSubject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruption of flat token files (uint16 and uint32), in a JVM of its own with a 96 MB
 * heap: every case reads cleanly or is refused naming the file; no crash, hang or out-of-memory.
 */
class TokenFileCorruptionFuzzTest {
    @Test
    void damagedTokenFilesReadOrFailNamingTheFile(@TempDir Path dir) throws Exception {
        Path fixtures = Files.createDirectories(dir.resolve("fixtures"));
        TokenFiles.writeU16(fixtures.resolve("a.u16"), 300, 4);
        Files.write(fixtures.resolve("b.u32"), TokenFiles.bytes(TokenFiles.valuesU16(150, 5), 4));
        Files.write(fixtures.resolve("short.u16"), TokenFiles.bytes(TokenFiles.valuesU16(20, 6), 2));
        CorruptionFuzz.Result r = CorruptionFuzz.run(dir, TokenFileFuzzSubject.class, fixtures,
                List.of("a.u16", "b.u32", "short.u16"), 80, "96m");
        assertThat(r.counts().get(FuzzSubject.Outcome.REFUSED_OPEN)).isPositive();
        assertThat(r.counts().get(FuzzSubject.Outcome.CLEAN)).isPositive();
    }
}
