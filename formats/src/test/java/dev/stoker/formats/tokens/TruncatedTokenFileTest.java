package dev.stoker.formats.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.mmap.MappedFileChangedError;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.SamplePolicy;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A token file cut short mid-epoch fails the loader naming the file, even under a policy that
 * skips bad samples: the rest of the file is not skipped one window at a time, as if it were whole.
 */
class TruncatedTokenFileTest {
    @TempDir
    Path dir;

    @Test
    void aFileCutShortIsNotSkippedSampleBySample() throws IOException {
        Path file = TokenFiles.writeU16(dir.resolve("t.bin"), 100_000, 4); // 200 KB: many pages
        Throwable failure = null;
        int batches = 0;
        try (TokenFile tokens = TokenFile.open(file, TokenType.U16);
             DataLoader<TokenWindow> loader = DataLoader.builder(TokenWindowDataset.nonOverlapping(tokens, 512))
                     .batchSize(8).numWorkers(2).onBadSample(SamplePolicy.SKIP).build()) {
            for (Batch b : loader) {
                try (b) {
                    if (++batches == 1) {
                        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                            ch.truncate(4096);
                        }
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        Throwable c = failure;
        while (c != null && !(c instanceof MappedFileChangedError)) {
            c = c.getCause();
        }
        assertThat(c).as("the loader's failure: %s", failure).isNotNull();
        assertThat(c.getMessage()).startsWith(file + " changed while it was memory-mapped")
                .contains("is now 4096 bytes: it was truncated").containsPattern("window [0-9]+");
        assertThat(batches).isLessThan(100_000 / 513 / 8);
    }
}
