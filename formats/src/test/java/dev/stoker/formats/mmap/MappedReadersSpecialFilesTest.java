package dev.stoker.formats.mmap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.formats.npy.NpyFile;
import dev.stoker.formats.tokens.TokenFile;
import dev.stoker.formats.tokens.TokenType;
import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers that map their files ({@link MappedFile}: {@code .npy}, token files, Megatron
 * {@code .bin}/{@code .idx}) given a named pipe (whose open would block until a writer comes) or
 * a link to a device: each is refused at once, naming the file and what it is.
 */
class MappedReadersSpecialFilesTest {
    @TempDir
    Path dir;

    @Test
    void aFifoIsRefusedByEveryMappingReaderNamingIt() throws Exception {
        Path npy = SpecialFiles.fifo(dir.resolve("x.npy"));
        Path tokens = SpecialFiles.fifo(dir.resolve("tokens.bin"));
        Path bin = SpecialFiles.fifo(dir.resolve("wiki_text_document.bin"));
        Path idx = SpecialFiles.fifo(dir.resolve("wiki_text_document.idx"));
        String fifo = SpecialFiles.FIFO_REFUSED;
        assertThat(SpecialFiles.refused(npy, () -> MappedFile.open(npy))).hasMessage(npy + fifo);
        assertThat(SpecialFiles.refused(npy, () -> NpyFile.open(npy))).hasMessage(npy + fifo);
        assertThat(SpecialFiles.refused(tokens, () -> TokenFile.open(tokens, TokenType.U16))).hasMessage(tokens + fifo);
        Throwable megatron = SpecialFiles.refused(bin, () -> MegatronDataset.open(dir.resolve("wiki_text_document")));
        assertThat(SpecialFiles.messages(megatron)).contains(bin + fifo);
        try (SharedArena group = SharedArena.create("tokens")) {
            assertThat(SpecialFiles.refused(tokens, () -> TokenFile.open(tokens, TokenType.U32, group)))
                    .hasMessage(tokens + fifo);
        }
        assertThat(idx).exists();
    }

    @Test
    void aLinkToADeviceIsRefusedRatherThanMappedEmpty() throws Exception {
        // /dev/zero reports 0 bytes: mapped, it would read as an empty file, wrongly.
        Path zero = SpecialFiles.linkToDevZero(dir.resolve("tokens.bin"));
        assertThat(SpecialFiles.refused(zero, () -> TokenFile.open(zero, TokenType.U16)))
                .hasMessageStartingWith(zero + ": is a character device, not a regular file");
        Files.delete(zero);
    }
}
