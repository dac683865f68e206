package dev.stoker.formats.hdf5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Links in an HDF5 file (src/test/python/make_link_fixtures.py): a file names other files by
 * itself through external links, so those are refused without opening the file they name (jhdf
 * reads the file here through a storage with no backing path, so it cannot resolve them: this
 * test keeps it so); soft links inside the file are followed, a loop of them refused.
 */
class Hdf5LinksTest {
    @TempDir
    Path dir;

    private Path fixture(String name) throws IOException {
        for (String f : new String[] {"external.h5", "soft.h5", "other.h5"}) {
            Files.copy(Hdf5DatasetTest.fixture("links/" + f), dir.resolve(f));
        }
        return dir.resolve(name);
    }

    @Test
    void anExternalLinkIsRefusedByNameWithoutOpeningItsTarget() throws Exception {
        Path file = fixture("external.h5");
        // Were the link followed, opening the FIFO it names would wait for a writer for ever.
        Files.delete(dir.resolve("other.h5"));
        Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("other.h5").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (String path : new String[] {"data", "/group/data"}) {
                assertThatThrownBy(() -> Hdf5Dataset.open(file, path, "labels").close()).as(path)
                        .isInstanceOf(Hdf5FormatException.class)
                        .hasMessageContaining(file.toString())
                        .hasMessageContaining("external file 'other.h5'");
            }
        });
        try (Hdf5Dataset ds = Hdf5Dataset.open(file, "labels")) {
            assertThat(ds.size()).isEqualTo(4);
        }
    }

    @Test
    void softLinksInsideTheFileAreFollowedAndLoopsRefused() throws Exception {
        Path file = fixture("soft.h5");
        try (Hdf5Dataset ds = Hdf5Dataset.open(file, "alias")) {
            assertThat(ds.size()).isEqualTo(4);
            assertThat(ds.get(3).get("alias").getLong(0)).isEqualTo(21);
        }
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            assertThatThrownBy(() -> Hdf5Dataset.open(file, "loop").close())
                    .isInstanceOf(Hdf5FormatException.class).hasMessageContaining("loop");
            assertThatThrownBy(() -> Hdf5Dataset.open(file, "far").close())
                    .isInstanceOf(Hdf5FormatException.class).hasMessageContaining("external file 'other.h5'");
        });
    }
}
