package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that open files a user names (inspect, pack, pack's tokenizer), given a named pipe
 * in place of the file: each fails at once, saying on stderr which file it is and what it is; none
 * blocks in the open.
 */
class SpecialFilesCommandTest {
    @TempDir
    Path dir;

    /** Runs the command; a failure comes out as an exception holding its stderr, for {@link SpecialFiles#refused}. */
    private static void command(String... args) {
        BenchCommandTest.Run r = BenchCommandTest.run(args);
        if (r.exit() != 0) {
            throw new IllegalStateException("exit " + r.exit() + ": " + r.err());
        }
    }

    private static void refused(Path fifo, String... args) throws InterruptedException {
        Throwable e = SpecialFiles.refused(fifo, () -> command(args));
        assertThat(e).hasMessageContaining(fifo.toString()).hasMessageContaining(": is a named pipe (FIFO), not a regular file");
    }

    @Test
    void inspectRefusesAFifoNamingIt() throws Exception {
        for (String name : new String[] {"shard.tar", "x.npy", "tokens.bin", "train.jsonl"}) {
            Path fifo = SpecialFiles.fifo(dir.resolve(name));
            refused(fifo, "inspect", fifo.toString());
        }
    }

    @Test
    void packRefusesAFifoAsItsInputOrTokenizer() throws Exception {
        Path input = SpecialFiles.fifo(dir.resolve("in.jsonl"));
        refused(input, "pack", input.toString(), "-o", dir.resolve("out-%d.tar").toString());
        Path text = Files.writeString(dir.resolve("train.jsonl"), "{\"text\": \"hello\"}\n");
        Path tokenizer = SpecialFiles.fifo(dir.resolve("tokenizer.json"));
        refused(tokenizer, "pack", text.toString(), "--tokenizer", tokenizer.toString(), "-o",
                dir.resolve("tokens.bin").toString());
    }

    /** A folder packed as files grouped by key: a pipe among them is refused, not left out of the shards. */
    @Test
    void packRefusesAFifoAmongTheFilesOfAFolder() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("samples"));
        Files.writeString(folder.resolve("000001.txt"), "one");
        Path fifo = SpecialFiles.fifo(folder.resolve("000002.txt"));
        refused(fifo, "pack", folder.toString(), "-o", dir.resolve("out-%d.tar").toString());
    }
}
