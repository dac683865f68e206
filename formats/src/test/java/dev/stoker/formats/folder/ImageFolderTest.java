package dev.stoker.formats.folder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageFolderTest {
    @TempDir
    Path root;

    static void file(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
    }

    @Test
    void findsClassesAndFilesAsTorchvisionDoes() throws IOException {
        file(root.resolve("dog/b.JPG"), "dog-b");
        file(root.resolve("dog/a.png"), "dog-a");
        file(root.resolve("dog/notes.txt"), "not an image");
        file(root.resolve("dog/sub/c.jpeg"), "dog-sub-c");
        file(root.resolve("dog/sub-x/d.jpg"), "dog-subx-d");
        file(root.resolve("Cat/z.webp"), "cat-z");
        file(root.resolve("ant/x.jpg"), "ant-x");
        file(root.resolve("top-level.jpg"), "ignored: not in a class folder");
        ImageFolder f = ImageFolder.scan(root);
        // sorted by code point: uppercase before lowercase, as Python sorts
        assertThat(f.classes()).containsExactly("Cat", "ant", "dog");
        assertThat(f.classToIndex()).isEqualTo(Map.of("Cat", 0, "ant", 1, "dog", 2));
        List<String> names = f.files().stream().map(lf -> root.relativize(lf.path()).toString()).toList();
        // files of a folder by name; folders by path string: "dog" < "dog/sub" < "dog/sub-x"
        assertThat(names).containsExactly("Cat/z.webp", "ant/x.jpg", "dog/a.png", "dog/b.JPG", "dog/sub/c.jpeg",
                "dog/sub-x/d.jpg");
        assertThat(f.targets()).containsExactly(0, 1, 2, 2, 2, 2);

        ImageFolderDataset ds = f.dataset();
        assertThat(ds.size()).isEqualTo(6);
        ImageBytes s = ds.get(3);
        assertThat(new String(s.bytes(), StandardCharsets.UTF_8)).isEqualTo("dog-b");
        assertThat(s.label()).isEqualTo(2);
        assertThat(s.path()).isEqualTo(root.resolve("dog/b.JPG"));
    }

    @Test
    void theFileDatasetNamesEachFileWithoutReadingIt() throws IOException {
        file(root.resolve("dog/b.jpg"), "dog-b");
        file(root.resolve("cat/a.jpg"), "cat-a");
        ImageFolder f = ImageFolder.scan(root);
        var files = f.fileDataset();
        assertThat(files.size()).isEqualTo(2);
        assertThat(files.get(0)).isEqualTo(new LabeledFile(root.resolve("cat/a.jpg"), 0));
        assertThat(files.get(1)).isEqualTo(new LabeledFile(root.resolve("dog/b.jpg"), 1));
        // nothing is read: a file deleted after the scan is still named
        Files.delete(root.resolve("dog/b.jpg"));
        assertThat(files.get(1).path()).isEqualTo(root.resolve("dog/b.jpg"));
        assertThat(files.name()).isEqualTo("image folder " + root);
        assertThatThrownBy(() -> files.get(2)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage(root + ": file 2 is outside [0, 2)");
    }

    @Test
    void extensionsCanBeChosen() throws IOException {
        file(root.resolve("a/1.txt"), "t");
        file(root.resolve("a/2.jpg"), "j");
        file(root.resolve("b/3.TXT"), "T");
        ImageFolder f = ImageFolder.scan(root, List.of("txt"), false);
        assertThat(f.files()).extracting(LabeledFile::label).containsExactly(0, 1);
    }

    @Test
    void anEmptyClassIsAnErrorNamingIt() throws IOException {
        file(root.resolve("a/1.jpg"), "x");
        Files.createDirectories(root.resolve("b"));
        file(root.resolve("c/readme.md"), "x");
        assertThatThrownBy(() -> ImageFolder.scan(root)).isInstanceOf(ImageFolderException.class)
                .hasMessageContaining("[b, c]").hasMessageContaining(root.toString());
        ImageFolder allowed = ImageFolder.scan(root, ImageFolder.IMAGE_EXTENSIONS, true);
        assertThat(allowed.classes()).containsExactly("a", "b", "c");
        assertThat(allowed.files()).hasSize(1);
    }

    @Test
    void noClassFolderIsAnErrorNamingTheRoot() throws IOException {
        file(root.resolve("x.jpg"), "x");
        assertThatThrownBy(() -> ImageFolder.scan(root)).isInstanceOf(ImageFolderException.class)
                .hasMessageContaining("no class folder in " + root);
        assertThatThrownBy(() -> ImageFolder.scan(root.resolve("missing"))).hasMessageContaining("is not a folder");
    }

    @Test
    void anUnreadableFileFailsNamingIt() throws IOException {
        file(root.resolve("a/1.jpg"), "x");
        ImageFolderDataset ds = ImageFolder.scan(root).dataset();
        Files.delete(root.resolve("a/1.jpg"));
        assertThatThrownBy(() -> ds.get(0)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(root.resolve("a/1.jpg").toString());
    }

    @Test
    void aLinkLoopIsWalkedOnce() throws IOException {
        file(root.resolve("a/1.jpg"), "x");
        try {
            Files.createSymbolicLink(root.resolve("a/loop"), root.resolve("a"));
        } catch (UnsupportedOperationException | IOException e) {
            return; // no symbolic links here
        }
        assertThat(ImageFolder.scan(root).files()).hasSize(1);
    }

    @Test
    void linksToFilesCountAndDanglingOnesAndFoldersNamedLikeImagesDoNot() throws IOException {
        file(root.resolve("a/1.jpg"), "x");
        file(root.resolve("elsewhere/real.jpg"), "y");
        Files.createDirectories(root.resolve("a/folder.jpg/inner"));
        file(root.resolve("a/folder.jpg/inner/2.jpg"), "z");
        try {
            Files.createSymbolicLink(root.resolve("a/0_link.jpg"), root.resolve("elsewhere/real.jpg"));
            Files.createSymbolicLink(root.resolve("a/ghost.jpg"), root.resolve("nowhere.jpg"));
        } catch (UnsupportedOperationException | IOException e) {
            return; // no symbolic links here
        }
        // class a, sorted(os.walk): a's files 0_link.jpg, 1.jpg (ghost.jpg dangles), then a/folder.jpg/inner's
        assertThat(ImageFolder.scan(root).files()).extracting(f -> root.relativize(f.path()).toString())
                .containsExactly("a/0_link.jpg", "a/1.jpg", "a/folder.jpg/inner/2.jpg", "elsewhere/real.jpg");
    }

    @Test
    void pythonOrderIsByCodePoint() {
        String emoji = new String(Character.toChars(0x1F600));
        assertThat(PythonOrder.compare(emoji, "\uFF01")).isPositive(); // Java's compareTo says negative
        assertThat(emoji.compareTo("\uFF01")).isNegative();
        assertThat(PythonOrder.compare("ab", "abc")).isNegative();
        assertThat(PythonOrder.compare("B", "a")).isNegative();
    }
}
