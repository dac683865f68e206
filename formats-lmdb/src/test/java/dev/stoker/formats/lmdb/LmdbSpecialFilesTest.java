package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe where an LMDB environment's data file was (a folder's {@code data.mdb}, or a
 * single-file environment): refused at once, naming it and what it is, where it used to be
 * reported as missing; liblmdb never opens it.
 */
class LmdbSpecialFilesTest {
    private static final String FIFO = SpecialFiles.FIFO_REFUSED;

    @TempDir
    Path dir;

    @Test
    void aFifoAsTheDataFileIsRefusedNamingIt() throws Exception {
        Path single = SpecialFiles.fifo(dir.resolve("train.lmdb"));
        assertThat(SpecialFiles.refused(single, () -> LmdbDataset.open(single))).isInstanceOf(LmdbException.class)
                .hasMessageContaining(single + FIFO);
        Path env = Files.createDirectories(dir.resolve("env"));
        Path data = SpecialFiles.fifo(env.resolve("data.mdb"));
        assertThat(SpecialFiles.refused(data, () -> LmdbDataset.open(env))).isInstanceOf(LmdbException.class)
                .hasMessageContaining(data + FIFO);
    }

    @Test
    void aWriterAskedToOverwriteAFifoRefusesItRatherThanReadingIt() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("out.lmdb"));
        Throwable e = SpecialFiles.refused(fifo, () -> LmdbWriter.builder(fifo).singleFile(true).overwrite(true).build().close());
        assertThat(SpecialFiles.messages(e)).contains(fifo + FIFO);
    }
}
