package dev.stoker.formats.lmdb;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The corruption fuzz cases, run in a JVM of their own by {@link LmdbCorruptionFuzzTest} so that
 * a crash fails one case instead of killing the test run. For each base environment and seed it
 * damages a copy ({@link LmdbCorruptor}), opens it with {@link LmdbEnvironment#open} and reads
 * every key the base holds and a few it lacks. It prints, per case, {@code start <base> <seed>
 * <damage>} before and {@code done <base> <seed> clean|refused-open|refused-read} after, or
 * {@code BAD <base> <seed> <throwable>} where the outcome is neither a clean read nor an
 * {@link LmdbException} naming the environment; last a {@code summary} line per base.
 *
 * <p>Arguments: a work directory, the fixtures directory, the number of cases per base, and
 * optionally {@code trusted} to open without the structural check (to see what it prevents: the
 * JVM soon dies).
 */
public final class LmdbFuzzRunner {
    private static boolean trusted;

    private LmdbFuzzRunner() {}

    public static void main(String[] args) throws IOException {
        Path work = Path.of(args[0]);
        Path fixtures = Path.of(args[1]);
        int cases = Integer.parseInt(args[2]);
        trusted = args.length > 3 && args[3].equals("trusted");
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Map<String, Path> bases = new LinkedHashMap<>();
        bases.put("small", fixtures.resolve("small"));
        bases.put("nolen", fixtures.resolve("nolen"));
        bases.put("tree", fixtures.resolve("tree"));
        bases.put("overwritten", fixtures.resolve("overwritten")); // overflow runs counted whole, freed pages
        bases.put("churn", fixtures.resolve("churn"));             // a freelist reused over 40 transactions
        bases.put("w8", LmdbTestEnvironments.writeW8(work.resolve("w8-base"), 40, 100, 3000, 700, 9000, 20));
        int b = 0;
        for (Map.Entry<String, Path> base : bases.entrySet()) {
            run(out, base.getKey(), b++, base.getValue(), work.resolve("case-" + base.getKey()), cases);
        }
    }

    private static void run(PrintStream out, String name, int index, Path base, Path caseDir, int cases)
            throws IOException {
        byte[] pristine = Files.readAllBytes(base.resolve("data.mdb"));
        List<byte[]> keys = new ArrayList<>(LmdbTestEnvironments.keys(base));
        for (String absent : List.of("zzzzzz", "000000x", "\u0001", "__len_")) {
            keys.add(absent.getBytes(StandardCharsets.UTF_8));
        }
        LmdbCorruptor corruptor = new LmdbCorruptor(pristine);
        Files.createDirectories(caseDir);
        Path data = caseDir.resolve("data.mdb");
        int clean = 0;
        int refusedOpen = 0;
        int refusedRead = 0;
        int bad = 0;
        for (int i = 0; i < cases; i++) {
            long seed = index * 1_000_000L + i;
            LmdbCorruptor.Corruption c = corruptor.corrupt(seed);
            out.println("start " + name + " " + seed + " " + c.what());
            Files.write(data, c.bytes());
            String outcome;
            boolean opened = false;
            try (LmdbEnvironment env = trusted ? LmdbEnvironment.openTrusted(caseDir) : LmdbEnvironment.open(caseDir)) {
                opened = true;
                for (byte[] key : keys) {
                    env.get(key, "#" + key.length);
                }
                env.entries();
                outcome = "clean";
            } catch (LmdbException e) {
                if (e.getMessage() == null || !e.getMessage().contains(caseDir.toString())) {
                    outcome = "BAD message without the path: " + e;
                } else if (!e.source().contains(caseDir.toString()) || e.position() == null) {
                    // one error family: the file is a field as well as words (the loader reports it alike)
                    outcome = "BAD source field '" + e.source() + "' is not the environment: " + e;
                } else {
                    outcome = opened ? "refused-read " + e.getMessage() : "refused-open";
                }
            } catch (Throwable t) {
                outcome = "BAD " + t;
            }
            if (outcome.startsWith("BAD")) {
                bad++;
                out.println("BAD " + name + " " + seed + " " + outcome.substring(4));
                continue;
            }
            if (outcome.equals("clean")) {
                clean++;
            } else if (outcome.equals("refused-open")) {
                refusedOpen++;
            } else {
                refusedRead++;
            }
            out.println("done " + name + " " + seed + " " + outcome);
        }
        out.println("summary " + name + " cases=" + cases + " clean=" + clean + " refused-open=" + refusedOpen
                + " refused-read=" + refusedRead + " bad=" + bad);
    }
}
