package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stream without an index: every line to exactly one worker of any layout, resume by skipping
 * equals reading on, bad lines named and passed, gzip read in one pass; and, for seeded files, the
 * index and the stream agree with what was written.
 */
class JsonlStreamTest {
    @TempDir
    Path dir;

    /** Writes {@code files} files of seeded lines {"text": "f<file>l<line>", ...}; returns them and their texts in order. */
    private List<Path> files(int files, SplittableRandom rnd, List<String> texts, boolean gzip) throws Exception {
        List<Path> out = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            StringBuilder sb = new StringBuilder();
            int lines = rnd.nextInt(0, 30);
            for (int l = 0; l < lines; l++) {
                String t = "f" + f + "l" + l + " \u00e9\\n\ud83d\ude00".repeat(rnd.nextInt(0, 3));
                sb.append("{\"id\": ").append(l).append(", \"text\": \"").append(t).append("\"}\n");
                texts.add(t.replace("\\n", "\n"));
            }
            byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
            Path p = dir.resolve("s" + out.size() + "-" + rnd.nextInt(1 << 30) + (gzip ? ".jsonl.gz" : ".jsonl"));
            if (gzip) {
                ByteArrayOutputStream z = new ByteArrayOutputStream();
                try (GZIPOutputStream g = new GZIPOutputStream(z)) {
                    g.write(bytes);
                }
                bytes = z.toByteArray();
            }
            Files.write(p, bytes);
            out.add(p);
        }
        return out;
    }

    private static <T> List<T> read(SampleStream<T> s) {
        List<T> out = new ArrayList<>();
        try (s) {
            s.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void everyLineGoesToExactlyOneWorkerOfAnyLayout() throws Exception {
        SplittableRandom rnd = new SplittableRandom(18);
        for (int trial = 0; trial < 25; trial++) {
            List<String> texts = new ArrayList<>();
            List<Path> files = files(rnd.nextInt(1, 7), rnd, texts, rnd.nextBoolean());
            JsonlStream<String> stream = JsonlStream.field(files, "text").withShuffledFiles(rnd.nextBoolean());
            int world = rnd.nextInt(1, 4);
            int workers = rnd.nextInt(1, 4);
            List<String> all = new ArrayList<>();
            for (int rank = 0; rank < world; rank++) {
                for (int w = 0; w < workers; w++) {
                    all.addAll(read(stream.open(new WorkerContext(w, workers, rank, world, trial, 7))));
                }
            }
            assertThat(all).as("trial %d: %d files, %d x %d workers", trial, files.size(), world, workers)
                    .containsExactlyInAnyOrderElementsOf(texts);
        }
    }

    @Test
    void shuffledFilesComeInANewOrderEachEpochTheSameForEveryWorker() throws Exception {
        List<Path> files = files(8, new SplittableRandom(1), new ArrayList<>(), false);
        JsonlStream<String> stream = JsonlStream.field(files, "text").withShuffledFiles(true);
        assertThat(stream.order(4, 0)).isNotEqualTo(stream.order(4, 1)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7)
                .isEqualTo(stream.order(4, 0));
        assertThat(JsonlStream.field(files, "text").order(4, 1)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        List<String> firstLines = new ArrayList<>();
        for (int epoch = 0; epoch < 2; epoch++) {
            try (SampleStream<String> s = stream.open(new WorkerContext(0, 1, 0, 1, epoch, 4))) {
                firstLines.add(s.hasNext() ? s.next() : "");
            }
        }
        assertThat(firstLines.get(0)).isNotEqualTo(firstLines.get(1));
    }

    @Test
    void skippingEqualsReadingOn() throws Exception {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int trial = 0; trial < 20; trial++) {
            List<String> texts = new ArrayList<>();
            List<Path> files = files(rnd.nextInt(1, 5), rnd, texts, rnd.nextBoolean());
            JsonlStream<String> stream = JsonlStream.field(files, "text");
            WorkerContext ctx = new WorkerContext(rnd.nextInt(2), 2, 0, 1, 0, 0);
            List<String> whole = read(stream.open(ctx));
            int n = rnd.nextInt(whole.size() + 2);
            try (SampleStream<String> s = stream.open(ctx)) {
                assertThat(s.skip(n)).isEqualTo(Math.min(n, whole.size()));
                List<String> rest = new ArrayList<>();
                s.forEachRemaining(rest::add);
                assertThat(rest).isEqualTo(whole.subList(Math.min(n, whole.size()), whole.size()));
            }
        }
    }

    @Test
    void aBadLineIsNamedAndTheStreamGoesOn() throws Exception {
        Path p = dir.resolve("bad.jsonl");
        Files.writeString(p, "{\"text\":\"1\"}\n{\"text\":\n" + "{\"text\":\"" + "x".repeat(100) + "\"}\n{\"text\":\"4\"}");
        try (SampleStream<String> s = JsonlStream.field(List.of(p), "text").withMaxLineBytes(50).open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            assertThat(s.next()).isEqualTo("1");
            assertThatThrownBy(s::next).isInstanceOf(JsonlLineException.class).hasMessageStartingWith(p + ": line 2: ");
            assertThatThrownBy(s::next).isInstanceOf(JsonlLineException.class)
                    .hasMessage(p + ": line 3: is longer than 50 bytes (the stream's limit)");
            assertThat(s.next()).isEqualTo("4");
            assertThat(s.hasNext()).isFalse();
        }
    }

    @Test
    void aDamagedGzipIsAFormatErrorNamingTheFileAndTheLineReached() throws Exception {
        byte[] gz = Files.readAllBytes(JsonlFiles.resource("python.jsonl.gz"));
        Path p = dir.resolve("cut.jsonl.gz");
        Files.write(p, Arrays.copyOf(gz, gz.length / 2));
        JsonlStream<byte[]> stream = JsonlStream.lines(List.of(p));
        assertThatThrownBy(() -> read(stream.open(new WorkerContext(0, 1, 0, 1, 0, 0))))
                .isInstanceOf(JsonlLineException.class).hasMessageStartingWith(p + ": line ")
                .hasMessageContaining("the gzip stream ends early");
    }

    @Test
    void theIndexAndTheStreamReadBackWhatWasWritten() throws Exception {
        SplittableRandom rnd = new SplittableRandom(9);
        for (int trial = 0; trial < 20; trial++) {
            List<String> texts = new ArrayList<>();
            Path file = files(1, rnd, texts, false).get(0);
            try (JsonlDataset<String> ds = JsonlDataset.field(file, "text")) {
                assertThat(ds.size()).isEqualTo(texts.size());
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(ds.get(i)).isEqualTo(texts.get(i));
                }
            }
            assertThat(read(JsonlStream.field(List.of(file), "text").open(new WorkerContext(0, 1, 0, 1, 0, 0))))
                    .isEqualTo(texts);
        }
    }
}
