package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.mmap.MappedFileChangedError;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page-header walk is the one read of a Parquet file through its map (Hardwood reads with
 * positional reads): a file cut short under the map faults the walk, and the walk names the file,
 * the row group and the column, a fault compiled code reported late included.
 */
class TruncatedParquetTest {
    @TempDir
    Path dir;

    @Test
    void aHotPageHeaderWalkOverAFileCutShortNamesTheFileAndColumn() throws Exception {
        Path file = Files.copy(ParquetFixtures.file("snappy_dict.parquet"), dir.resolve("snappy_dict.parquet"));
        long size = Files.size(file);
        try (ParquetSource source = new ParquetSource(List.of(file), List.of(), 1, 1 << 20, 1 << 30)) {
            int groups = source.groups();
            for (int i = 0; i < 1_000; i++) { // the walk compiled: a fault is then reported late, after the read
                assertThat(source.decode(i % groups)).isNotNull();
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(0);
            }
            assertThatThrownBy(() -> source.decode(groups - 1)).isInstanceOf(MappedFileChangedError.class)
                    .hasMessageStartingWith(file + " changed while it was memory-mapped: it was " + size
                            + " bytes when it was mapped and is now 0 bytes")
                    .hasMessageContaining("reading the page headers of row " + (ParquetFixtures.ROWS
                            - ParquetFixtures.ROWS % ParquetFixtures.GROUP) + " (" + file + ", row group "
                            + (groups - 1) + ", column '")
                    .hasMessageContaining("faulted past its end");
        }
    }
}
