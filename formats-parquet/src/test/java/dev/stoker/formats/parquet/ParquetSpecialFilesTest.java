package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.SpecialFiles;
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
}
