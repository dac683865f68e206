package dev.stoker.text.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe (or a link to a device) where a tokenizer file was, whatever its name says: refused
 * at once naming it and what it is; nothing blocks in the open or reads without end.
 */
class TokenizerSpecialFilesTest {
    private static final String FIFO = SpecialFiles.FIFO_REFUSED;

    @TempDir
    Path dir;

    @Test
    void aFifoIsRefusedNamingItByEveryWayOfOpeningOne() throws Exception {
        for (String name : new String[] {"tokenizer.json", "spm.model", "tokenizer"}) {
            Path fifo = SpecialFiles.fifo(dir.resolve(name));
            assertThat(SpecialFiles.refused(fifo, () -> Tokenizers.open(fifo).close())).hasMessage(fifo + FIFO);
        }
        Path json = dir.resolve("tokenizer.json");
        assertThat(SpecialFiles.refused(json, () -> HfTokenizer.open(json).close())).hasMessage(json + FIFO);
        Path model = dir.resolve("spm.model");
        assertThat(SpecialFiles.refused(model, () -> SentencePieceTokenizer.open(model).close())).hasMessage(model + FIFO);
    }

    @Test
    void aLinkToADeviceIsRefusedRatherThanReadWithoutEnd() throws Exception {
        Path zero = SpecialFiles.linkToDevZero(dir.resolve("tokenizer.json"));
        assertThat(SpecialFiles.refused(zero, () -> Tokenizers.open(zero).close()))
                .hasMessageStartingWith(zero + ": is a character device");
        Files.delete(zero);
    }
}
