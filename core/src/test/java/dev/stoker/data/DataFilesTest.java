package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.testing.SpecialFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFilesTest {
    @TempDir
    Path dir;

    @Test
    void aFifoIsRefusedNamedAndNothingHangs() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("tokens.bin"));
        for (SpecialFiles.Read read : new SpecialFiles.Read[] {
                () -> DataFiles.openChannel(fifo).close(),
                () -> DataFiles.newInputStream(fifo).close(),
                () -> DataFiles.readAllBytes(fifo),
                () -> DataFiles.requireRegularFile(fifo)}) {
            Throwable e = SpecialFiles.refused(fifo, read);
            assertThat(e).isInstanceOf(NotRegularFileException.class)
                    .hasMessage(fifo + ": is a named pipe (FIFO), not a regular file; a data file must be a regular file");
            assertThat(((NotRegularFileException) e).getFile()).isEqualTo(fifo.toString());
            assertThat(((NotRegularFileException) e).kind()).isEqualTo("a named pipe (FIFO)");
        }
    }

    @Test
    void aFifoNamedLikeShellCommandsIsMadeAndRefusedAsItIsNamed() throws Exception {
        // a file name holds no '/': the commands would touch the marker in the working folder
        String mark = "stoker-fifo-name-ran-" + ProcessHandle.current().pid();
        Path marker = Path.of(mark);
        String hostile = "-x $(touch " + mark + ") `touch " + mark + "`; touch " + mark;
        Path fifo = SpecialFiles.fifo(dir.resolve(hostile));
        assertThat(fifo).exists();
        assertThat(fifo.getFileName().toString()).isEqualTo(hostile);
        assertThat(marker).doesNotExist();
        assertThat(SpecialFiles.refused(fifo, () -> DataFiles.openChannel(fifo).close()))
                .hasMessage(fifo + SpecialFiles.FIFO_REFUSED);
    }

    @Test
    void aLinkToACharacterDeviceIsRefusedRatherThanReadWithoutEnd() throws Exception {
        Path zero = SpecialFiles.linkToDevZero(dir.resolve("shard.tar"));
        Throwable e = SpecialFiles.refused(zero, () -> DataFiles.readAllBytes(zero));
        assertThat(e).isInstanceOf(NotRegularFileException.class).hasMessageStartingWith(zero + ": is a character device,")
                .hasMessageContaining("a data file must be a regular file");
        Files.delete(zero); // the link, not /dev/zero: JUnit would warn about a link out of its folder
    }

    @Test
    void aSocketIsRefused() throws Exception {
        Path socket = dir.resolve("s.jsonl");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            assertThatThrownBy(() -> DataFiles.openChannel(socket)).isInstanceOf(NotRegularFileException.class)
                    .hasMessageStartingWith(socket + ": is a socket, not a regular file");
        }
    }

    @Test
    void aFolderIsRefused() {
        assertThatThrownBy(() -> DataFiles.newInputStream(dir)).isInstanceOf(NotRegularFileException.class)
                .hasMessageStartingWith(dir + ": is a folder, not a regular file");
    }

    @Test
    void aRegularFileAndALinkToOneOpen() throws IOException {
        Path file = Files.write(dir.resolve("a.bin"), new byte[] {1, 2, 3});
        Path link = Files.createSymbolicLink(dir.resolve("link.bin"), file);
        for (Path p : new Path[] {file, link}) {
            try (FileChannel ch = DataFiles.openChannel(p); InputStream in = DataFiles.newInputStream(p)) {
                assertThat(ch.size()).isEqualTo(3);
                assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
            }
            assertThat(DataFiles.readAllBytes(p)).containsExactly(1, 2, 3);
        }
    }

    @Test
    void aMissingFileOrDanglingLinkFailsAsTheOpenWould() throws IOException {
        Path dangling = Files.createSymbolicLink(dir.resolve("gone.bin"), dir.resolve("nothing"));
        assertThatThrownBy(() -> DataFiles.openChannel(dir.resolve("missing.bin"))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> DataFiles.openChannel(dangling)).isInstanceOf(NoSuchFileException.class)
                .hasMessage(dangling + ": a link to a file that is not there");
    }

    @Test
    void attributesReadByTheCallerAreCheckedWithoutAnotherLookUp() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("img.jpg"));
        BasicFileAttributes a = Files.readAttributes(fifo, BasicFileAttributes.class);
        assertThatThrownBy(() -> DataFiles.requireRegularFile(fifo, a)).isInstanceOf(NotRegularFileException.class)
                .hasMessageContaining("named pipe");
        Path file = Files.write(dir.resolve("ok.jpg"), new byte[1]);
        DataFiles.requireRegularFile(file, Files.readAttributes(file, BasicFileAttributes.class));
    }
}
