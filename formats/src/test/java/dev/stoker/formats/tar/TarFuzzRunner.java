package dev.stoker.formats.tar;

import dev.stoker.data.DataFormatException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Runs the seeded cases of one {@link FuzzArea} in a JVM of its own ({@link TarInputFuzzTest}
 * starts it through {@code CaseJvm}), so that a case that exhausts memory or hangs fails the test
 * at that case instead of taking the test run down. Per case it prints {@code start <area> <seed>
 * <damage>} before, and after it {@code done <area> <seed> clean|refused <Type>}, or
 * {@code BAD <area> <seed> ...} when the case neither read cleanly nor failed with one of the
 * area's exception types naming its input; last a {@code summary} line.
 *
 * <p>Arguments: a work folder, the area ({@code gzip}, {@code stream}, {@code pipe}, {@code index},
 * {@code tensor}, {@code cache}), the first seed and the number of cases.
 */
public final class TarFuzzRunner {
    static final Map<String, Function<Path, FuzzArea>> AREAS = Map.of(
            "gzip", GzipFuzzArea::new,
            "stream", StreamFuzzArea::new,
            "pipe", PipeFuzzArea::new,
            "index", IndexFuzzArea::new,
            "tensor", TensorFuzzArea::new,
            "cache", CacheFuzzArea::new);

    private TarFuzzRunner() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Files.createDirectories(Path.of(args[0]));
        String name = args[1];
        long first = Long.parseLong(args[2]);
        int cases = Integer.parseInt(args[3]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        FuzzArea area = AREAS.get(name).apply(work);
        Map<String, Integer> outcomes = new TreeMap<>();
        for (long seed = first; seed < first + cases; seed++) {
            FuzzArea.Case c = area.make(seed, work);
            out.println("start " + name + " " + seed + " " + c.what());
            String outcome = outcome(area, c);
            if (outcome.startsWith("BAD")) {
                out.println("BAD " + name + " " + seed + " " + c.what() + ": " + outcome.substring(4));
                outcomes.merge("bad", 1, Integer::sum);
            } else {
                out.println("done " + name + " " + seed + " " + outcome);
                outcomes.merge(outcome.startsWith("refused") ? "refused" : outcome, 1, Integer::sum);
            }
        }
        out.println("summary " + name + " cases=" + cases + " " + outcomes.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
    }

    private static String outcome(FuzzArea area, FuzzArea.Case c) {
        try {
            c.read().call();
            return "clean";
        } catch (Throwable t) {
            if (!area.refusals().contains(t.getClass())) {
                return "BAD " + describe(t);
            }
            String message = String.valueOf(t.getMessage());
            for (String n : c.names()) {
                if (!message.contains(n)) {
                    return "BAD the message does not name " + n + ": " + describe(t);
                }
            }
            // one error family: file and position are fields as well as words (the loader reports them alike)
            if (!(t instanceof DataFormatException d) || c.names().stream().noneMatch(n -> d.source().contains(n))
                    || !message.contains(d.source()) || d.position() == null) {
                return "BAD not a DataFormatException whose source field is the file it names: " + describe(t);
            }
            return "refused " + t.getClass().getSimpleName();
        }
    }

    private static String describe(Throwable t) {
        StackTraceElement[] at = t.getStackTrace();
        String where = Arrays.stream(at, 0, Math.min(6, at.length)).map(String::valueOf)
                .collect(Collectors.joining(" < "));
        return t + " at " + where + (t.getCause() == null ? "" : " caused by " + t.getCause());
    }
}
