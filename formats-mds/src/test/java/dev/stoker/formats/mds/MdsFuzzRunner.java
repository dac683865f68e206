package dev.stoker.formats.mds;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.DataPosition;
import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The corruption fuzz cases, run in a JVM of their own by {@link MdsCorruptionFuzzTest}. For each
 * base set and seed it damages a fresh copy ({@link MdsCorruptor}), opens it (with or without the
 * hash check), and reads every sample through every accessor its columns' encodings allow, and the
 * fill path over the fixed columns. It prints {@code start <base> <seed> <damage>} before each case
 * and {@code done <base> <seed> clean|refused-open|refused-read} after, or {@code BAD <base> <seed>
 * <throwable>} where the outcome is neither a clean read nor an {@link MdsFormatException} naming
 * the case's directory; last a {@code summary} line per base.
 *
 * <p>Arguments: a work directory, the fixtures directory, the number of cases per base, the bases.
 */
public final class MdsFuzzRunner {
    private MdsFuzzRunner() {
    }

    public static void main(String[] args) throws IOException {
        Path work = Path.of(args[0]);
        Path fixtures = Path.of(args[1]);
        int cases = Integer.parseInt(args[2]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (int b = 3; b < args.length; b++) {
            String base = args[b];
            int clean = 0;
            int refusedOpen = 0;
            int refusedRead = 0;
            for (int seed = 0; seed < cases; seed++) {
                Path caseDir = work.resolve("case");
                delete(caseDir);
                copy(fixtures.resolve(base), caseDir);
                String damage = MdsCorruptor.damage(caseDir, seed * 1_000_003L + b);
                out.println("start " + base + " " + seed + " " + damage);
                String outcome;
                try {
                    outcome = readAll(caseDir, seed % 4 == 0);
                } catch (Throwable t) {
                    out.println("BAD " + base + " " + seed + " " + t + " at " + (t.getStackTrace().length > 0
                            ? t.getStackTrace()[0] : "?"));
                    continue;
                }
                switch (outcome) {
                    case "clean" -> clean++;
                    case "refused-open" -> refusedOpen++;
                    default -> refusedRead++;
                }
                out.println("done " + base + " " + seed + " " + outcome);
            }
            out.println("summary " + base + " cases=" + cases + " clean=" + clean + " refused-open=" + refusedOpen
                    + " refused-read=" + refusedRead);
        }
    }

    /** Reads everything; "clean", "refused-open" or "refused-read", or throws what was not an MdsFormatException. */
    static String readAll(Path dir, boolean verify) {
        MdsDataset ds;
        try {
            ds = MdsDataset.open(dir, MdsOptions.defaults().verifyHashes(verify));
        } catch (MdsFormatException e) {
            requireNamed(e, dir);
            return "refused-open";
        }
        boolean refused = false;
        try (ds; Arena arena = Arena.ofConfined()) {
            List<String> fixed = new ArrayList<>();
            for (String c : ds.columns()) {
                MdsEncoding e = ds.column(c).encoding();
                if (e.isFixedTensor()) {
                    fixed.add(c);
                }
            }
            MdsTensorDataset tensors = fixed.isEmpty() ? null : ds.tensors(fixed.toArray(String[]::new));
            BatchSlots slots = null;
            if (tensors != null) {
                List<Tensor> batch = new ArrayList<>();
                for (SampleLayout.Field f : tensors.layout().fields()) {
                    batch.add(Tensor.allocate(arena, f.dtype(), f.shape().prepend(1)));
                }
                slots = new BatchSlots(tensors.layout(), batch);
            }
            for (int s = 0; s < ds.shards(); s++) {
                long first = ds.firstSample(s);
                long end = s + 1 < ds.shards() ? ds.firstSample(s + 1) : ds.size();
                for (long i = first; i < end; i++) {
                    try {
                        MdsSample sample = ds.get(i);
                        for (String c : ds.columns()) {
                            try {
                                readColumn(ds, sample, c);
                            } catch (MdsFormatException e) {
                                requireNamed(e, dir);
                                requireSample(e, i);
                                // scalars' sample 1 holds a uint64 past int64 by design: not damage
                                refused |= !e.getMessage().contains("does not fit in");
                            }
                        }
                        if (tensors != null) {
                            try {
                                tensors.fill(i, slots.slot(0));
                            } catch (MdsFormatException e) {
                                requireNamed(e, dir);
                                requireSample(e, i);
                                refused |= !e.getMessage().contains("does not fit in");
                            }
                        }
                    } catch (MdsFormatException e) {
                        requireNamed(e, dir);
                        refused = true;
                        if (!e.getMessage().contains(" in the shard)")) {
                            break; // the shard itself is refused: its other samples would say the same
                        }
                    }
                }
            }
        }
        return refused ? "refused-read" : "clean";
    }

    private static void readColumn(MdsDataset ds, MdsSample s, String c) {
        MdsEncoding e = ds.column(c).encoding();
        s.segment(c);
        switch (e.kind()) {
            case STR, JSON, STR_DECIMAL -> s.string(c);
            case STR_INT -> {
                s.string(c);
                s.doubleValue(c);
            }
            case STR_FLOAT -> s.doubleValue(c);
            case SCALAR -> {
                s.tensor(c);
                s.doubleValue(c);
            }
            case NDARRAY -> s.tensor(c);
            case PIL -> s.pil(c);
            case LIST_PIL -> {
                for (MemorySegment item : s.items(c)) {
                    s.pil(item);
                }
            }
            case LIST_JPEG, LIST_PNG, JPEG_ARRAY -> s.items(c);
            default -> s.bytes(c);
        }
    }

    /** A damaged sample's typed position is that sample, where the error gives one. */
    private static void requireSample(MdsFormatException e, long index) {
        if (e.position() instanceof DataPosition.Item(String unit, long at) && (!unit.equals("sample") || at != index)) {
            throw new IllegalStateException("reading sample " + index + " failed at " + e.position() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void requireNamed(MdsFormatException e, Path dir) {
        if (e.getMessage() == null || !e.getMessage().contains(dir.toString())) {
            throw new IllegalStateException("an MdsFormatException that does not name " + dir + ": " + e.getMessage(), e);
        }
        // one error family: the file is a field as well as words (the loader reports it alike)
        if (!e.source().contains(dir.toString()) || !e.getMessage().contains(e.source()) || e.position() == null) {
            throw new IllegalStateException("an MdsFormatException whose source field '" + e.source()
                    + "' is not its file under " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                Files.copy(f, to.resolve(f.getFileName().toString()));
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
