package dev.stoker.formats.folder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.testing.SpecialFiles;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe or a device where an image folder holds an image: torchvision lists it and its
 * worker then hangs reading it; the scan refuses it naming it, and a file made one after the scan
 * is refused when read, naming it. Nothing hangs.
 */
class ImageFolderSpecialFilesTest {
    @TempDir
    Path root;

    @Test
    void theScanRefusesAFifoNamedLikeAnImageNamingIt() throws Exception {
        ImageFolderTest.file(root.resolve("cat/a.jpg"), "cat-a");
        ImageFolderTest.file(root.resolve("dog/b.jpg"), "dog-b");
        Path fifo = SpecialFiles.fifo(root.resolve("dog/c.jpg"));
        Path zero = SpecialFiles.linkToDevZero(root.resolve("cat/z.png"));
        Throwable e = SpecialFiles.refused(fifo, () -> ImageFolder.scan(root));
        assertThat(e).isInstanceOf(ImageFolderException.class)
                .hasMessageStartingWith(root + ": 2 files with an image extension are not a regular file")
                .hasMessageContaining(zero + ": is a character device, not a regular file")
                .hasMessageContaining(fifo + ": is a named pipe (FIFO), not a regular file");
        Files.delete(zero);
    }

    @Test
    void specialFilesWithOtherNamesArePassedOverAsTorchvisionPassesThemOver() throws Exception {
        ImageFolderTest.file(root.resolve("cat/a.jpg"), "cat-a");
        SpecialFiles.fifo(root.resolve("cat/control.pipe"));
        ImageFolder f = ImageFolder.scan(root); // a scan opens no file: it cannot block on one
        assertThat(f.files()).extracting(LabeledFile::path).containsExactly(root.resolve("cat/a.jpg"));
    }

    @Test
    void aFileMadeAFifoAfterTheScanIsRefusedWhenReadNamingIt() throws Exception {
        ImageFolderTest.file(root.resolve("cat/a.jpg"), "cat-a");
        ImageFolderTest.file(root.resolve("cat/b.jpg"), "cat-b");
        ImageFolderDataset ds = ImageFolder.scan(root).dataset();
        Path b = root.resolve("cat/b.jpg");
        Files.delete(b);
        SpecialFiles.fifo(b);
        Throwable e = SpecialFiles.refused(b, () -> ds.get(1));
        assertThat(e).isInstanceOf(UncheckedIOException.class).hasMessageContaining("cannot read " + b)
                .hasMessageContaining(b + ": is a named pipe (FIFO), not a regular file");
        assertThat(new String(ds.get(0).bytes())).isEqualTo("cat-a");
        assertThatThrownBy(() -> ds.get(1)).hasMessageContaining("a data file must be a regular file");
    }
}
