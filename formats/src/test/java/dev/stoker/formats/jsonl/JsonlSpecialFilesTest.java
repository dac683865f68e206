package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.testing.SpecialFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe where a JSONL file or its line index was: the map-style dataset, the index build
 * and the stream refuse it at once naming it (each would block in the open), and a link to
 * {@code /dev/zero} (read without end by the index build and the stream) is refused too.
 */
class JsonlSpecialFilesTest {
    private static final String FIFO = SpecialFiles.FIFO_REFUSED;

    @TempDir
    Path dir;

    @Test
    void aFifoInPlaceOfTheDataIsRefusedNamingIt() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("train.jsonl"));
        assertThat(SpecialFiles.refused(fifo, () -> JsonlDataset.field(fifo, "text"))).hasMessage(fifo + FIFO);
        assertThat(SpecialFiles.refused(fifo, () -> JsonlDataset.index(fifo, dir.resolve("x.lines"))))
                .hasMessage(fifo + FIFO);
        assertThat(SpecialFiles.refused(fifo, () -> JsonlStream.field(List.of(fifo), "text"))).hasMessage(fifo + FIFO);
    }

    @Test
    void aFileMadeAFifoAfterTheStreamWasBuiltIsRefusedWhenTheStreamReachesIt() throws Exception {
        Path a = Files.writeString(dir.resolve("a.jsonl"), "{\"text\": \"one\"}\n");
        Path b = Files.writeString(dir.resolve("b.jsonl"), "{\"text\": \"two\"}\n");
        JsonlStream<String> stream = JsonlStream.field(List.of(a, b), "text");
        Files.delete(b);
        SpecialFiles.fifo(b);
        Throwable e = SpecialFiles.refused(b, () -> {
            try (SampleStream<String> s = stream.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                assertThat(s.next()).isEqualTo("one");
                s.hasNext();
            }
        });
        assertThat(e).hasMessageContaining(b + ": cannot be opened: " + b + FIFO);
    }

    @Test
    void aFifoInPlaceOfTheLineIndexIsRefusedNamingIt() throws Exception {
        Path data = Files.writeString(dir.resolve("train.jsonl"), "{\"text\": \"one\"}\n");
        Path sidecar = SpecialFiles.fifo(JsonlDataset.sidecarOf(data));
        Throwable e = SpecialFiles.refused(sidecar, () -> JsonlDataset.field(data, "text"));
        assertThat(SpecialFiles.messages(e)).contains(sidecar + FIFO);
    }

    @Test
    void aLinkToADeviceIsRefusedRatherThanReadWithoutEnd() throws Exception {
        Path zero = SpecialFiles.linkToDevZero(dir.resolve("zero.jsonl"));
        assertThat(SpecialFiles.refused(zero, () -> JsonlDataset.index(zero, dir.resolve("z.lines"))))
                .hasMessageStartingWith(zero + ": is a character device");
        assertThat(SpecialFiles.refused(zero, () -> JsonlStream.field(List.of(zero), "text")))
                .hasMessageStartingWith(zero + ": is a character device");
        Files.delete(zero);
    }
}
