package dev.stoker.formats.mmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedFileTest {
    @TempDir
    Path dir;

    @Test
    void mapsAFileAndUnmapsItOnClose() throws IOException {
        Path p = Files.write(dir.resolve("a"), new byte[] {1, 2, 3});
        MappedFile f = MappedFile.open(p);
        assertThat(f.size()).isEqualTo(3);
        assertThat(f.segment().isMapped()).isTrue();
        assertThat(f.segment().get(ValueLayout.JAVA_BYTE, 2)).isEqualTo((byte) 3);
        MemorySegment s = f.segment();
        f.close();
        f.close();
        assertThatThrownBy(() -> s.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anEmptyFileIsAnEmptySegment() throws IOException {
        try (MappedFile f = MappedFile.open(Files.write(dir.resolve("e"), new byte[0]))) {
            assertThat(f.size()).isZero();
        }
    }

    @Test
    void aMissingFileFailsNamingIt() {
        assertThatThrownBy(() -> MappedFile.open(dir.resolve("missing"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void aGroupClosesItsArenaWithTheLastReference() throws IOException {
        Path a = Files.write(dir.resolve("a"), new byte[] {1});
        Path b = Files.write(dir.resolve("b"), new byte[] {2});
        SharedArena group = SharedArena.create("test");
        MappedFile fa = MappedFile.open(a, group);
        MappedFile fb = MappedFile.open(b, group);
        group.close();
        assertThat(group.isOpen()).isTrue(); // the files still hold it
        fa.close();
        fa.close(); // a second close gives back nothing more
        assertThat(fb.segment().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 2);
        fb.close();
        assertThat(group.isOpen()).isFalse();
        assertThatThrownBy(() -> MappedFile.open(a, group)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'test' is closed");
    }

    @Test
    void aFailedOpenGivesTheReferenceBack() throws IOException {
        SharedArena group = SharedArena.create("g");
        assertThatThrownBy(() -> MappedFile.open(dir.resolve("missing"), group)).isInstanceOf(IOException.class);
        group.close();
        assertThat(group.isOpen()).isFalse();
    }
}
