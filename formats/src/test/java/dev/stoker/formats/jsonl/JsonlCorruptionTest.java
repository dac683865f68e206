package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded fuzz of the data: Python's lines with bytes flipped, cut and spliced. Every line either
 * reads or throws a {@link JsonlLineException} naming the file and that line, by index and by
 * stream alike, and the two agree line for line.
 */
class JsonlCorruptionTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void everyLineReadsOrIsNamedAndTheIndexAgreesWithTheStream() throws Exception {
        byte[] good = Files.readAllBytes(JsonlFiles.resource("python.jsonl"));
        SplittableRandom rnd = new SplittableRandom(18);
        int bad = 0;
        for (int c = 0; c < 150; c++) {
            byte[] data = good.clone();
            for (int k = rnd.nextInt(1, 8); k > 0; k--) {
                int at = rnd.nextInt(data.length);
                switch (rnd.nextInt(3)) {
                    case 0 -> data[at] ^= (byte) (1 << rnd.nextInt(8));
                    case 1 -> data[at] = (byte) "\"\\{}[]:,\n\r u0".charAt(rnd.nextInt(13));
                    default -> data[at] = (byte) rnd.nextInt(256);
                }
            }
            if (rnd.nextInt(4) == 0) {
                data = java.util.Arrays.copyOf(data, rnd.nextInt(data.length));
            }
            Path file = Files.write(dir.resolve("f" + c + ".jsonl"), data);
            try (JsonlDataset<String> ds = JsonlDataset.field(file, "text");
                    SampleStream<String> stream = JsonlStream.field(List.of(file), "text").open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                for (long i = 0; i < ds.size(); i++) {
                    String byIndex = outcome(ds::get, i, file);
                    assertThat(stream.hasNext()).as("case %d line %d", c, i + 1).isTrue();
                    String byStream = outcome(k -> stream.next(), i, file);
                    assertThat(byStream).as("case %d line %d", c, i + 1).isEqualTo(byIndex);
                    if (byIndex.startsWith("!")) {
                        bad++;
                    }
                }
                assertThat(stream.hasNext()).isFalse();
            }
        }
        assertThat(bad).isGreaterThan(100);
    }

    private static String outcome(java.util.function.LongFunction<String> read, long i, Path file) {
        try {
            return "=" + read.apply(i);
        } catch (JsonlLineException e) {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.line()).isEqualTo(i + 1);
            assertThat(e.getMessage()).startsWith(file + ": line " + (i + 1) + ": ");
            return "!" + e.getMessage();
        } catch (Throwable t) {
            fail("line " + (i + 1) + " of " + file + " threw " + t, t);
            return null;
        }
    }
}
