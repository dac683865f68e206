package dev.stoker.bench;

import dev.stoker.formats.jsonl.JsonlDataset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A JSONL text field read line by line ({@link JsonlDataset#field}): 2,000 documents of W10's
 * shape (syllable words, about 200 of them, a few accented, CJK or emoji characters) written three
 * ways: {@code escaped} as Python's {@code json.dumps} writes them by default (ASCII, every other
 * character a {@code \\u} escape: W10's files), {@code utf8} with {@code ensure_ascii=False} (raw
 * UTF-8, as many Hugging Face exports), and {@code ascii} with no escapes at all. Microseconds
 * per line, file read included.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar JsonlFieldBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class JsonlFieldBenchmark {
    private static final int LINES = 2_000;
    private static final String[] SYLLABLES = {"ai", "an", "ba", "ch", "der", "est", "ex", "gra", "im", "ing", "ka", "lo",
            "ly", "men", "nu", "or", "ou", "phi", "pre", "qu", "ri", "sa", "sto", "th", "tion", "ul", "vi", "ze"};
    private static final String[] RARE = {"ü", "é", "字", "λ", "\uD83D\uDE00", "ж"};

    @Param({"escaped", "utf8", "ascii"})
    public String style;

    private Path dir;
    private JsonlDataset<String> texts;
    private long next;

    @Setup
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("jsonl-bench");
        SplittableRandom r = new SplittableRandom(1234);
        StringBuilder file = new StringBuilder();
        for (int line = 0; line < LINES; line++) {
            StringBuilder text = new StringBuilder();
            int words = 20 + r.nextInt(400);
            for (int w = 0; w < words; w++) {
                if (w > 0) text.append(w % 12 == 11 ? ". " : " ");
                int parts = 1 + r.nextInt(3);
                for (int p = 0; p < parts; p++) text.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
                if (!style.equals("ascii") && r.nextInt(25) == 0) text.append(RARE[r.nextInt(RARE.length)]);
            }
            file.append("{\"text\": \"").append(style.equals("escaped") ? escaped(text) : text).append("\"}\n");
        }
        Path path = dir.resolve("texts.jsonl");
        Files.writeString(path, file, StandardCharsets.UTF_8);
        texts = JsonlDataset.field(path, "text");
    }

    /** What json.dumps writes by default: every character beyond ASCII as \\uXXXX (UTF-16 units). */
    private static String escaped(CharSequence text) {
        StringBuilder out = new StringBuilder(text.length() + 64);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    @Benchmark
    public String line() {
        String t = texts.get(next);
        next = (next + 1) % LINES;
        return t;
    }

    @TearDown
    public void tearDown() {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
