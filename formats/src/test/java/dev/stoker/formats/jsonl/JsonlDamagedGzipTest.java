package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.DataPosition;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gzip JSONL cut short or with flipped bytes (seeded), read as a stream: the damage is a format error, a
 * {@link JsonlLineException} naming the file and the line it reached, never an I/O error; the lines before it
 * are the file's own, one worker of any layout reports it, and the stream goes on with the next file.
 */
class JsonlDamagedGzipTest {
    @TempDir
    Path dir;

    /** What one worker read: its lines, and its errors in order. */
    record Read(List<String> lines, List<JsonlLineException> errors) {
    }

    static Read read(List<Path> files, WorkerContext context) throws Exception {
        List<String> lines = new ArrayList<>();
        List<JsonlLineException> errors = new ArrayList<>();
        try (SampleStream<byte[]> s = JsonlStream.lines(files).open(context)) {
            while (s.hasNext()) {
                assertThat(lines.size() + errors.size()).as("the stream ends").isLessThan(1_000_000);
                try {
                    lines.add(new String(s.next(), StandardCharsets.UTF_8));
                } catch (JsonlLineException e) {
                    errors.add(e);
                }
            }
        }
        return new Read(lines, errors);
    }

    /** A gzip file written by Python (the fixture) or a larger one of many 64 KiB chunks written by the JDK. */
    byte[] original(SplittableRandom r, List<String> lines) throws Exception {
        if (r.nextBoolean()) {
            byte[] gz = Files.readAllBytes(JsonlFiles.resource("python.jsonl.gz"));
            lines.addAll(Files.readAllLines(JsonlFiles.resource("python.jsonl"), StandardCharsets.UTF_8));
            return gz;
        }
        StringBuilder sb = new StringBuilder();
        for (int l = 0; l < 2_000 + r.nextInt(4_000); l++) {
            String line = "{\"text\": \"" + l + " " + Long.toHexString(r.nextLong()).repeat(r.nextInt(1, 12)) + "\"}";
            lines.add(line);
            sb.append(line).append('\n');
        }
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(z)) {
            g.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        return z.toByteArray();
    }

    @Test
    void aGzipCutShortGivesItsLinesUpToTheCutThenAFormatErrorAtTheLineReached() throws Exception {
        SplittableRandom r = new SplittableRandom(1808);
        Path intact = dir.resolve("intact.jsonl");
        Files.writeString(intact, "{\"text\": \"after\"}\n");
        for (int trial = 0; trial < 25; trial++) {
            List<String> lines = new ArrayList<>();
            byte[] gz = original(r, lines);
            Path cut = dir.resolve("cut-" + trial + ".jsonl.gz");
            Files.write(cut, Arrays.copyOf(gz, r.nextInt(1, gz.length - 8))); // the trailer at least is gone
            Read one = read(List.of(cut, intact), new WorkerContext(0, 1, 0, 1, 0, 0));
            assertThat(one.errors()).hasSize(1);
            JsonlLineException e = one.errors().get(0);
            int before = one.lines().size() - 1; // the intact file's line comes last
            assertThat(one.lines().subList(0, before)).isEqualTo(lines.subList(0, before));
            assertThat(one.lines().get(before)).isEqualTo("{\"text\": \"after\"}");
            assertThat(e.file()).isEqualTo(cut);
            assertThat(e.source()).isEqualTo(cut.toString());
            assertThat(e.position()).isEqualTo(DataPosition.line(before + 1));
            assertThat(e.line()).isEqualTo(before + 1);
            assertThat(e.getMessage()).startsWith(cut + ": line " + (before + 1) + ": ");
            assertThat(e.getCause()).isInstanceOfAny(EOFException.class, ZipException.class);
            assertThat(before).isLessThan(lines.size());
            assertSplitAcrossWorkers(List.of(cut, intact), one);
        }
    }

    @Test
    void aGzipWithFlippedBytesGivesFormatErrorsNamingItAndNoIoError() throws Exception {
        SplittableRandom r = new SplittableRandom(1809);
        Path intact = dir.resolve("intact.jsonl");
        Files.writeString(intact, "{\"text\": \"after\"}\n");
        int damaged = 0;
        for (int trial = 0; trial < 40; trial++) {
            List<String> lines = new ArrayList<>();
            byte[] gz = original(r, lines);
            for (int flips = 1 + r.nextInt(4); flips > 0; flips--) {
                gz[r.nextInt(gz.length)] ^= (byte) (1 << r.nextInt(8));
            }
            Path bad = dir.resolve("flipped-" + trial + ".jsonl.gz");
            Files.write(bad, gz);
            Read one = read(List.of(bad, intact), new WorkerContext(0, 1, 0, 1, 0, 0));
            // the intact file is read whatever befell the damaged one
            assertThat(one.lines()).last().isEqualTo("{\"text\": \"after\"}");
            for (JsonlLineException e : one.errors()) {
                assertThat(e.file()).isEqualTo(bad);
                assertThat(e.position()).isInstanceOf(DataPosition.Line.class);
                assertThat(e.line()).isPositive();
                assertThat(e.getMessage()).startsWith(bad + ": line " + e.line() + ": ");
            }
            if (one.errors().isEmpty()) { // a flip the format ignores (the header's time or OS byte)
                assertThat(one.lines().subList(0, one.lines().size() - 1)).isEqualTo(lines);
            } else {
                damaged++;
            }
            assertSplitAcrossWorkers(List.of(bad, intact), one);
        }
        assertThat(damaged).isGreaterThan(20);
    }

    /** Workers of any layout read between them what one worker read, and report each error once. */
    private static void assertSplitAcrossWorkers(List<Path> files, Read one) throws Exception {
        for (int workers : new int[] {2, 3}) {
            List<String> lines = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                Read part = read(files, new WorkerContext(w, workers, 0, 1, 0, 0));
                lines.addAll(part.lines());
                part.errors().forEach(e -> errors.add(e.getMessage()));
            }
            assertThat(lines).containsExactlyInAnyOrderElementsOf(one.lines());
            assertThat(errors).containsExactlyInAnyOrderElementsOf(one.errors().stream().map(Throwable::getMessage).toList());
        }
    }
}
