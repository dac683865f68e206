package dev.stoker.formats.parquet;

import dev.stoker.testing.CorruptionFuzz;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruption of pyarrow-written files (snappy, zstd, gzip, uncompressed; dictionary and
 * plain; data pages v1 and v2): every case reads cleanly or throws a {@link ParquetFormatException}
 * that names the file (and the row, for a read), in a JVM of its own with a 128 MB heap, so an
 * out-of-memory, a crash or a hang fails the test with the case it was on.
 */
class ParquetCorruptionFuzzTest {

    @Test
    void damagedFilesReadOrFailNamingTheFile(@TempDir Path dir) throws Exception {
        CorruptionFuzz.run(dir, ParquetFuzzSubject.class, ParquetFixtures.dir(), List.of("snappy_dict.parquet",
                "zstd_plain.parquet", "gzip_dict.parquet", "none_dict_v2.parquet"), 80, "128m").requireRefusals();
    }
}
