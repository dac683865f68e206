package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A named pipe where a Parquet file was: refused at once naming it and what it is, by path and in a file list. */
class ParquetSpecialFilesTest {
    private static final String FIFO = SpecialFiles.FIFO_REFUSED;

    @TempDir
    Path dir;

    @Test
    void aFifoIsRefusedNamingIt() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("train.parquet"));
        assertThat(SpecialFiles.refused(fifo, () -> ParquetDataset.open(fifo).close()))
                .isInstanceOf(ParquetFormatException.class).hasMessage(fifo + FIFO);
        assertThat(SpecialFiles.messages(SpecialFiles.refused(fifo,
                () -> ParquetDataset.builder(List.of(fifo)).build().close()))).contains(fifo + FIFO);
        assertThat(SpecialFiles.refused(fifo, () -> new ReadingInputFile(fifo).open())).hasMessage(fifo + FIFO);
    }

    /** In a folder: a pipe or a dangling link named .parquet is refused, not left out of the file list. */
    @Test
    void aFolderWithAFifoOrADanglingLinkNamedParquetIsRefused() throws Exception {
        Path shards = Files.createDirectories(dir.resolve("shards"));
        Path good = Files.createFile(shards.resolve("a.parquet"));
        Path other = SpecialFiles.fifo(shards.resolve("notes.txt")); // not named as a shard: not a shard
        assertThat(ParquetFiles.of(shards)).containsExactly(good);
        Path fifo = SpecialFiles.fifo(shards.resolve("b.parquet"));
        assertThat(SpecialFiles.refused(fifo, () -> ParquetFiles.of(shards)))
                .isInstanceOf(ParquetFormatException.class).hasMessage(fifo + FIFO);
        Files.delete(fifo);
        Path dangling = Files.createSymbolicLink(shards.resolve("c.parquet"), shards.resolve("gone.parquet"));
        assertThatThrownBy(() -> ParquetFiles.of(shards)).isInstanceOf(ParquetFormatException.class)
                .hasMessage(dangling + ": a link to a file that is not there");
        Files.delete(other);
    }
}
