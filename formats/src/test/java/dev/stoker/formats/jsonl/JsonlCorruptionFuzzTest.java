package dev.stoker.formats.jsonl;

import dev.stoker.testing.CorruptionFuzz;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruption of JSONL files (plain and gzip) and of their line index, in a JVM of its own
 * with a 96 MB heap: every case reads cleanly or is refused naming the file, and the line where a
 * line is at fault; no crash, hang or out-of-memory.
 */
class JsonlCorruptionFuzzTest {
    @Test
    void damagedFilesReadOrFailNamingFileAndLine(@TempDir Path dir) throws Exception {
        CorruptionFuzz.run(dir, JsonlFuzzSubject.class, JsonlFiles.resource("python.jsonl").getParent(),
                List.of("python.jsonl", "python.jsonl.gz"), 150, "96m").requireRefusals();
    }
}
