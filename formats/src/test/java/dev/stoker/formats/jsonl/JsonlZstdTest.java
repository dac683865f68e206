package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdOutputStream;
import dev.stoker.data.DataPosition;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zstd JSONL ({@code .jsonl.zst}, as Hugging Face and The Pile publish text) read as a stream through
 * zstd-jni: the zstd command line's file reads as its plain bytes; a file cut short or with flipped
 * bytes (seeded) is a {@link JsonlLineException} naming the file and the line reached, never an I/O
 * error, and the stream goes on with the next file; random access is refused, pointing to the stream.
 */
class JsonlZstdTest {
    @TempDir
    Path dir;

    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    @Test
    void theZstdToolsFileReadsAsThePlainOne() throws Exception {
        List<String> got = new ArrayList<>();
        try (SampleStream<String> s = JsonlStream.field(List.of(JsonlFiles.resource("python.jsonl.zst")), "text")
                .open(ONE)) {
            s.forEachRemaining(got::add);
        }
        assertThat(got).isEqualTo(JsonlFiles.expectedTexts());
    }

    @Test
    void randomAccessIsRefusedPointingToTheStream() {
        assertThatThrownBy(() -> JsonlDataset.field(JsonlFiles.resource("python.jsonl.zst"), dir.resolve("x.lines"),
                "text")).isInstanceOf(JsonlIndexException.class)
                .hasMessageContaining("python.jsonl.zst is zstd-compressed").hasMessageContaining("JsonlStream");
    }

    /** The zstd tool's fixture, or a larger file of many blocks written by zstd-jni. */
    private static byte[] original(SplittableRandom r, List<String> lines) throws Exception {
        if (r.nextInt(3) == 0) {
            lines.addAll(Files.readAllLines(JsonlFiles.resource("python.jsonl"), StandardCharsets.UTF_8));
            return Files.readAllBytes(JsonlFiles.resource("python.jsonl.zst"));
        }
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(z, 3)) {
            out.setChecksum(r.nextBoolean());
            for (int l = 0; l < 2_000 + r.nextInt(6_000); l++) {
                String line = "{\"text\": \"" + l + " " + Long.toHexString(r.nextLong()).repeat(r.nextInt(1, 12))
                        + "\"}";
                lines.add(line);
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return z.toByteArray();
    }

    private static List<Object> read(List<Path> files) throws Exception {
        List<Object> out = new ArrayList<>();
        try (SampleStream<byte[]> s = JsonlStream.lines(files).open(ONE)) {
            while (s.hasNext()) {
                assertThat(out.size()).as("the stream ends").isLessThan(1_000_000);
                try {
                    out.add(new String(s.next(), StandardCharsets.UTF_8));
                } catch (JsonlLineException e) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    @Test
    void aZstdFileCutShortGivesItsLinesThenAFormatErrorAtTheLineReached() throws Exception {
        SplittableRandom r = new SplittableRandom(2203);
        Path intact = dir.resolve("intact.jsonl");
        Files.writeString(intact, "{\"text\": \"after\"}\n");
        for (int trial = 0; trial < 25; trial++) {
            List<String> lines = new ArrayList<>();
            byte[] z = original(r, lines);
            Path cut = dir.resolve("cut-" + trial + ".jsonl.zst");
            Files.write(cut, Arrays.copyOf(z, r.nextInt(4, z.length - 4)));
            List<Object> got = read(List.of(cut, intact));
            assertThat(got).last().isEqualTo("{\"text\": \"after\"}");
            List<Object> errors = got.stream().filter(o -> o instanceof JsonlLineException).toList();
            assertThat(errors).as("trial %d", trial).hasSize(1);
            int at = got.indexOf(errors.getFirst());
            assertThat(got.subList(0, at)).isEqualTo(lines.subList(0, at));
            JsonlLineException e = (JsonlLineException) errors.getFirst();
            assertThat(e.file()).isEqualTo(cut);
            assertThat(e.position()).isEqualTo(DataPosition.line(at + 1));
            assertThat(e.getMessage()).startsWith(cut + ": line " + (at + 1) + ": ")
                    .contains("the zstd stream ends early (the file is cut short)");
            assertThat(e.getCause()).isInstanceOf(DamagedStreamException.class);
        }
    }

    @Test
    void aZstdFileWithFlippedBytesGivesFormatErrorsNamingItAndTheNextFileIsRead() throws Exception {
        SplittableRandom r = new SplittableRandom(2204);
        Path intact = dir.resolve("intact.jsonl");
        Files.writeString(intact, "{\"text\": \"after\"}\n");
        int damaged = 0;
        for (int trial = 0; trial < 40; trial++) {
            List<String> lines = new ArrayList<>();
            byte[] z = original(r, lines);
            for (int flips = 1 + r.nextInt(4); flips > 0; flips--) {
                z[r.nextInt(z.length)] ^= (byte) (1 << r.nextInt(8));
            }
            Path bad = dir.resolve("flipped-" + trial + ".jsonl.zst");
            Files.write(bad, z);
            List<Object> got = read(List.of(bad, intact));
            assertThat(got).last().isEqualTo("{\"text\": \"after\"}");
            for (Object o : got) {
                if (o instanceof JsonlLineException e) {
                    damaged++;
                    assertThat(e.file()).isEqualTo(bad);
                    assertThat(e.getMessage()).startsWith(bad + ": line " + e.line() + ": ");
                }
            }
        }
        assertThat(damaged).isGreaterThan(20);
    }
}
