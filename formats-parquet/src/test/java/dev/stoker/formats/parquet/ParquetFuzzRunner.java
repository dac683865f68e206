package dev.stoker.formats.parquet;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The corruption fuzz cases, run in a JVM of their own (small heap) by {@link ParquetCorruptionFuzzTest}.
 * For each base file and seed it damages a fresh copy ({@link ParquetCorruptor}), opens it and reads
 * every row through every getter, and through the fill path over the fixed-width columns. It prints
 * {@code start <base> <seed> <damage>} before each case and {@code done <base> <seed>
 * clean|refused-open|refused-read} after, or {@code BAD <base> <seed> <throwable>} where the outcome
 * is neither a clean read nor a {@link ParquetFormatException} naming the case's file; last a
 * {@code summary} line per base.
 *
 * <p>Arguments: a work directory, the fixtures directory, the number of cases per base, the bases.
 */
public final class ParquetFuzzRunner {
    private ParquetFuzzRunner() {
    }

    public static void main(String[] args) throws IOException {
        Path work = Path.of(args[0]);
        Path fixtures = Path.of(args[1]);
        int cases = Integer.parseInt(args[2]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (int b = 3; b < args.length; b++) {
            String base = args[b];
            int[] counts = new int[3];
            for (int seed = 0; seed < cases; seed++) {
                Path file = work.resolve("case-" + seed + ".parquet");
                Files.copy(fixtures.resolve(base), file, StandardCopyOption.REPLACE_EXISTING);
                String damage = ParquetCorruptor.damage(file, seed * 1_000_003L + b);
                out.println("start " + base + " " + seed + " " + damage);
                String outcome;
                try {
                    outcome = readAll(file);
                } catch (Throwable t) {
                    out.println("BAD " + base + " " + seed + " " + t + " at "
                            + (t.getStackTrace().length > 0 ? t.getStackTrace()[0] : "?"));
                    continue;
                } finally {
                    Files.deleteIfExists(file);
                }
                counts[outcome.equals("clean") ? 0 : outcome.equals("refused-open") ? 1 : 2]++;
                out.println("done " + base + " " + seed + " " + outcome);
            }
            out.println("summary " + base + " cases=" + cases + " clean=" + counts[0] + " refused-open=" + counts[1]
                    + " refused-read=" + counts[2]);
        }
    }

    /** Reads everything; "clean", "refused-open" or "refused-read", or throws what was not a ParquetFormatException naming the file. */
    static String readAll(Path file) {
        ParquetDataset ds;
        try {
            ds = ParquetDataset.open(file);
        } catch (ParquetFormatException e) {
            named(e, file);
            return "refused-open";
        }
        boolean refused = false;
        try (ds) {
            for (long i = 0; i < ds.size(); i++) {
                try {
                    ParquetRow r = ds.get(i);
                    r.toMap();
                    r.toString();
                } catch (ParquetFormatException e) {
                    named(e, file);
                    refused = true;
                }
            }
            java.util.List<FillColumn> fixed = new java.util.ArrayList<>();
            for (ParquetColumn c : ds.columns()) {
                if (c.kind().isNumeric() && !c.kind().isList()) {
                    fixed.add(FillColumn.scalar(c.name()));
                }
            }
            if (!fixed.isEmpty()) {
                ParquetTensorDataset t = ds.tensors(fixed.toArray(FillColumn[]::new));
                for (long i = 0; i < t.size(); i++) {
                    try {
                        t.get(i);
                    } catch (ParquetFormatException e) {
                        named(e, file);
                        refused = true;
                    }
                }
            }
        }
        return refused ? "refused-read" : "clean";
    }

    private static void named(ParquetFormatException e, Path file) {
        if (e.getMessage() == null || !e.getMessage().contains(file.toString())) {
            throw new AssertionError("the error does not name " + file + ": " + e.getMessage(), e);
        }
        // one error family: the file is a field as well as words (the loader reports it alike)
        if (!e.source().contains(file.toString()) || !e.getMessage().contains(e.source()) || e.position() == null) {
            throw new AssertionError("the error's source field '" + e.source() + "' is not " + file + ": "
                    + e.getMessage(), e);
        }
    }
}
