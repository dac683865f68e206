package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every line Python's json.dumps wrote reads as json.loads reads it, by index, by stream and from gzip and zstd. */
class JsonlFixturesTest {
    @TempDir
    Path dir;

    @Test
    void randomAccessGivesWhatJsonLoadsGave() throws Exception {
        List<String> expected = JsonlFiles.expectedTexts();
        Path file = JsonlFiles.copy("python.jsonl", dir);
        try (JsonlDataset<String> texts = JsonlDataset.field(file, "text")) {
            assertThat(texts.size()).isEqualTo(expected.size());
            for (int i = expected.size() - 1; i >= 0; i--) {
                assertThat(texts.get(i)).as("line %d", i + 1).isEqualTo(expected.get(i));
            }
        }
        assertThat(Files.exists(JsonlDataset.sidecarOf(file))).isTrue();
    }

    @Test
    void rawLinesAreTheFilesLines() throws Exception {
        Path file = JsonlFiles.copy("python.jsonl", dir);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        try (JsonlDataset<byte[]> raw = JsonlDataset.lines(file)) {
            for (int i = 0; i < lines.size(); i++) {
                assertThat(new String(raw.get(i), StandardCharsets.UTF_8)).isEqualTo(lines.get(i));
            }
        }
    }

    @Test
    void theStreamReadsPlainAndGzipAlike() throws Exception {
        List<String> expected = JsonlFiles.expectedTexts();
        for (String name : List.of("python.jsonl", "python.jsonl.gz", "python.jsonl.zst")) {
            JsonlStream<String> stream = JsonlStream.field(List.of(JsonlFiles.resource(name)), "text");
            List<String> got = new ArrayList<>();
            try (SampleStream<String> s = stream.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                s.forEachRemaining(got::add);
            }
            assertThat(got).as(name).isEqualTo(expected);
        }
    }

    @Test
    void gzipIsRefusedForRandomAccessPointingToTheStream() {
        assertThatThrownBy(() -> JsonlDataset.field(JsonlFiles.resource("python.jsonl.gz"), dir.resolve("x.lines"), "text"))
                .isInstanceOf(JsonlIndexException.class).hasMessageContaining("python.jsonl.gz is gzip-compressed")
                .hasMessageContaining("JsonlStream");
    }

    @Test
    void theGzipFixtureHoldsThePlainBytes() throws Exception {
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(JsonlFiles.resource("python.jsonl.gz")))) {
            assertThat(Arrays.equals(in.readAllBytes(), Files.readAllBytes(JsonlFiles.resource("python.jsonl")))).isTrue();
        }
    }
}
