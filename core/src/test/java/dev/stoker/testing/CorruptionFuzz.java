package dev.stoker.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The seeded corruption fuzz every reader runs, in a JVM of its own ({@link CaseJvm}) with a small
 * heap, so that a crash, a hang or an out-of-memory fails the test with the case it was on. For
 * each base fixture and seed the {@link FuzzSubject} damages a fresh copy and reads all of it;
 * every case must read cleanly or be refused with a named format error.
 *
 * <pre>{@code
 * CorruptionFuzz.Result r = CorruptionFuzz.run(dir, JsonlFuzzSubject.class, fixtures, List.of("a.jsonl"), 200, "128m");
 * r.requireRefusals();      // the damage is caught, not always harmless
 * }</pre>
 *
 * <p>The case JVM prints {@code start <base> <seed> <damage>} before each case, then {@code done
 * <base> <seed> <outcome>}, or {@code BAD <base> <seed> <throwable> at <frame>}; last a
 * {@code summary} line per base.
 */
public final class CorruptionFuzz {
    private CorruptionFuzz() {
    }

    /** The outcomes of every case, counted. */
    public record Result(Map<FuzzSubject.Outcome, Integer> counts, List<String> summaries) {
        /** Some cases were refused at open and some while reading: the fuzz reached both. */
        public Result requireRefusals() {
            assertThat(counts.get(FuzzSubject.Outcome.REFUSED_OPEN)).as("cases refused at open, of " + counts)
                    .isPositive();
            assertThat(counts.get(FuzzSubject.Outcome.REFUSED_READ)).as("cases refused while reading, of " + counts)
                    .isPositive();
            return this;
        }
    }

    /**
     * Runs {@code cases} cases of each base in a case JVM with a heap of {@code heap} and checks
     * that none was BAD and every one ran.
     */
    public static Result run(Path dir, Class<? extends FuzzSubject> subject, Path fixtures, List<String> bases,
                             int cases, String heap) throws IOException, InterruptedException {
        Path work = Files.createDirectories(dir.resolve("work"));
        List<String> args = new ArrayList<>(List.of(subject.getName(), fixtures.toString(), work.toString(),
                Integer.toString(cases)));
        args.addAll(bases);
        List<String> lines = CaseJvm.run(dir, subject.getSimpleName(), CorruptionFuzz.class,
                List.of("-Xmx" + heap, "-XX:-OmitStackTraceInFastThrow"), args, Duration.ofSeconds(300));
        List<String> bad = lines.stream().filter(l -> l.startsWith("BAD ")).toList();
        assertThat(bad).as("cases that neither read cleanly nor failed with a format error naming the file").isEmpty();
        List<String> summaries = lines.stream().filter(l -> l.startsWith("summary ")).toList();
        assertThat(summaries).hasSize(bases.size());
        Map<FuzzSubject.Outcome, Integer> counts = new EnumMap<>(FuzzSubject.Outcome.class);
        for (FuzzSubject.Outcome o : FuzzSubject.Outcome.values()) {
            counts.put(o, 0);
        }
        long done = 0;
        for (String l : lines) {
            if (l.startsWith("done ")) {
                counts.merge(FuzzSubject.Outcome.valueOf(l.substring(l.lastIndexOf(' ') + 1)), 1, Integer::sum);
                done++;
            }
        }
        assertThat(done).as("cases run").isEqualTo((long) cases * bases.size());
        summaries.forEach(System.out::println);
        return new Result(counts, summaries);
    }

    /** The case JVM: subject class, fixtures, work folder, cases per base, bases. */
    public static void main(String[] args) throws Exception {
        FuzzSubject subject = (FuzzSubject) Class.forName(args[0]).getConstructor().newInstance();
        Path fixtures = Path.of(args[1]);
        Path work = Path.of(args[2]);
        int cases = Integer.parseInt(args[3]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (int b = 4; b < args.length; b++) {
            String base = args[b];
            Map<FuzzSubject.Outcome, Integer> counts = new EnumMap<>(FuzzSubject.Outcome.class);
            for (int seed = 0; seed < cases; seed++) {
                FuzzSubject.Case c = subject.damage(fixtures, base, work, seed * 1_000_003L + b);
                out.println("start " + base + " " + seed + " " + c.damage());
                try {
                    FuzzSubject.Outcome o = subject.readAll(c);
                    counts.merge(o, 1, Integer::sum);
                    out.println("done " + base + " " + seed + " " + o);
                } catch (Throwable t) {
                    out.println("BAD " + base + " " + seed + " " + t + " at "
                            + (t.getStackTrace().length > 0 ? t.getStackTrace()[0] : "?")
                            + (t.getCause() != null ? " caused by " + t.getCause() : ""));
                }
            }
            out.println("summary " + base + " cases=" + cases + " " + counts);
        }
    }
}
