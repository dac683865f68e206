package dev.stoker.formats.hdf5;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A named pipe or a device where an HDF5 file was is refused at once naming it; nothing blocks in the open. */
class Hdf5SpecialFilesTest {
    @TempDir
    Path dir;

    @Test
    void aFifoOrADeviceIsRefusedNamingIt() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("data.h5"));
        assertThat(SpecialFiles.refused(fifo, () -> Hdf5Dataset.open(fifo, "data", "labels")))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessage(fifo + ": cannot read the file: " + fifo + SpecialFiles.FIFO_REFUSED);
        Path zero = SpecialFiles.linkToDevZero(dir.resolve("zero.h5"));
        assertThat(SpecialFiles.refused(zero, () -> Hdf5Dataset.open(zero, "data")))
                .hasMessageContaining(zero + ": is a character device, not a regular file");
        Files.delete(zero);
    }
}
