package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CorruptionFuzz;
import dev.stoker.testing.FuzzSubject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruption of the Megatron fixtures (every token type; written by Megatron's format
 * code), in a JVM of its own with a 96 MB heap: every case reads cleanly or is refused naming the
 * file; no crash, hang or out-of-memory.
 */
class MegatronCorruptionFuzzTest {
    @Test
    void damagedDatasetsReadOrFailNamingTheFile(@TempDir Path dir) throws Exception {
        CorruptionFuzz.Result r = CorruptionFuzz.run(dir, MegatronFuzzSubject.class,
                MegatronFixtures.prefix("uint16").getParent(), MegatronFixtures.NAMES, 60, "96m");
        assertThat(r.counts().get(FuzzSubject.Outcome.REFUSED_OPEN)).isPositive();
        assertThat(r.counts().get(FuzzSubject.Outcome.CLEAN)).isPositive();
    }
}
