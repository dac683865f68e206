package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.CaseJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruption of pyarrow-written files (snappy, zstd, gzip, uncompressed; dictionary and
 * plain; data pages v1 and v2): every case reads cleanly or throws a {@link ParquetFormatException}
 * that names the file, in a JVM of its own with a 128 MB heap, so an out-of-memory, a crash or a
 * hang fails the test with the case it was on.
 */
class ParquetCorruptionFuzzTest {

    @Test
    void damagedFilesReadOrFailNamingTheFile(@TempDir Path dir) throws Exception {
        List<String> lines = CaseJvm.run(dir, "parquet", ParquetFuzzRunner.class, List.of("-Xmx128m", "-XX:-OmitStackTraceInFastThrow"),
                List.of(dir.toString(), ParquetFixtures.dir().toString(), "80", "snappy_dict.parquet",
                        "zstd_plain.parquet", "gzip_dict.parquet", "none_dict_v2.parquet"),
                Duration.ofSeconds(300));
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD")).toList();
        lines.stream().filter(l -> l.startsWith("summary")).forEach(System.out::println);
        assertThat(bad).isEmpty();
        assertThat(lines.stream().filter(l -> l.startsWith("summary"))).hasSize(4);
    }
}
