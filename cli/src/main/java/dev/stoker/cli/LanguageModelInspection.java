package dev.stoker.cli;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.jsonl.JsonlDataset;
import dev.stoker.formats.jsonl.JsonlStream;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.formats.parquet.ParquetColumn;
import dev.stoker.formats.parquet.ParquetDataset;
import dev.stoker.formats.parquet.ParquetFiles;
import dev.stoker.formats.parquet.ParquetRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code stoker inspect} for language-model data: a Parquet file or folder (Hugging Face layouts
 * included), a JSONL file with its line index, a Megatron-LM / NeMo indexed dataset
 * ({@code prefix.idx} + {@code prefix.bin}). Each report gives the rows (or lines, sequences and
 * documents), a histogram of lengths and the first values, and writes nothing beside the data (a
 * JSONL file without its index is read in one pass instead of indexed).
 */
final class LanguageModelInspection {
    private static final byte[] MEGATRON_MAGIC = "MMIDIDX\0\0".getBytes(StandardCharsets.ISO_8859_1);
    private static final int SHOWN_TOKENS = 16;
    private static final int SHOWN_CHARS = 80;

    /** Hardwood logs its codec and SIMD choices through java.util.logging: not for a report's reader. Held, so it stays set. */
    private static final java.util.logging.Logger HARDWOOD = java.util.logging.Logger.getLogger("dev.hardwood");

    static {
        HARDWOOD.setLevel(java.util.logging.Level.WARNING);
    }

    private LanguageModelInspection() {}

    /** Whether {@code file} is a Megatron index: its first bytes are {@code MMIDIDX\0\0}. */
    static boolean isMegatronIndex(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(MEGATRON_MAGIC.length), MEGATRON_MAGIC);
        } catch (IOException e) {
            return false;
        }
    }

    /** The Megatron prefix {@code name} names ({@code p.idx}, {@code p.bin} or {@code p} itself), or null. */
    static Path megatronPrefix(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        String prefix = lower.endsWith(".idx") || lower.endsWith(".bin") ? name.substring(0, name.length() - 4) : name;
        Path p = Path.of(prefix);
        return isMegatronIndex(MegatronDataset.idxPath(p)) ? p : null;
    }

    /** Whether {@code path} is a Parquet file or a folder holding one. */
    static boolean isParquet(Path path) {
        if (path.toString().toLowerCase(Locale.ROOT).endsWith(".parquet")) {
            return true;
        }
        if (!Files.isDirectory(path)) {
            return false;
        }
        try (var walk = Files.walk(path)) {
            return walk.anyMatch(p -> p.toString().endsWith(".parquet"));
        } catch (IOException e) {
            return false;
        }
    }

    static boolean isJsonl(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".jsonl") || lower.endsWith(".jsonl.gz") || lower.endsWith(".ndjson")
                || lower.endsWith(".jsonl.lines");
    }

    static boolean parquet(PrintWriter out, PrintWriter err, Path path, String split, int show) {
        try {
            List<Path> files = split != null ? ParquetFiles.huggingFace(path, split) : ParquetFiles.of(path);
            try (ParquetDataset ds = ParquetDataset.builder(files).build()) {
                long bytes = 0;
                for (Path f : files) {
                    bytes += Files.size(f);
                }
                out.printf(Locale.ROOT, "%s: Parquet%s, %,d rows in %,d row group%s, %d file%s (%s)%n", path,
                        split != null ? " split '" + split + "'" : "", ds.size(), ds.rowGroups(),
                        ds.rowGroups() == 1 ? "" : "s", files.size(), files.size() == 1 ? "" : "s",
                        ByteSize.format(bytes));
                List<String> cols = new ArrayList<>();
                ParquetColumn lengths = null;
                for (ParquetColumn c : ds.columns()) {
                    cols.add(c.name() + ":" + c.kind().name().toLowerCase(Locale.ROOT) + (c.nullable() ? "?" : ""));
                    // the first list column (token ids), else the first text column
                    if (c.kind().isList() ? lengths == null || !lengths.kind().isList()
                            : lengths == null && c.kind() == dev.stoker.formats.parquet.ColumnKind.STRING) {
                        lengths = c;
                    }
                }
                out.println("  columns: " + String.join(", ", cols));
                if (lengths != null) {
                    // a length histogram over the first column of lists or text: tokens per row, or characters
                    LengthHistogram h = new LengthHistogram();
                    String name = lengths.name();
                    boolean list = lengths.kind().isList();
                    try (ParquetDataset one = ParquetDataset.builder(files).columns(name).build();
                         SampleStream<ParquetRow> rows = one.stream().open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                        while (rows.hasNext()) {
                            ParquetRow r = rows.next();
                            if (!r.isNull(name)) {
                                h.add(list ? listLength(r, name, lengths) : r.getBytesView(name).byteSize());
                            }
                        }
                    }
                    h.print(out, "lengths of '" + name + "'", list ? "values" : "bytes");
                }
                for (long i = 0; i < Math.min(show, ds.size()); i++) {
                    ParquetRow r = ds.get(i);
                    List<String> values = new ArrayList<>();
                    for (ParquetColumn c : ds.columns()) {
                        values.add(c.name() + "=" + shortValue(r, c));
                    }
                    out.println("    " + i + ": " + String.join(" ", values));
                }
            }
            return true;
        } catch (RuntimeException | IOException e) {
            out.flush();
            err.println(path + ": error: " + e.getMessage());
            return false;
        }
    }

    private static int listLength(ParquetRow r, String name, ParquetColumn c) {
        return switch (c.kind()) {
            case INT32_LIST -> r.getIntList(name).length;
            case INT64_LIST -> r.getLongList(name).length;
            case FLOAT_LIST -> r.getFloatList(name).length;
            default -> r.getDoubleList(name).length;
        };
    }

    private static String shortValue(ParquetRow r, ParquetColumn c) {
        String name = c.name();
        if (r.isNull(name)) {
            return "null";
        }
        return switch (c.kind()) {
            case INT32, INT64 -> Long.toString(r.getLong(name));
            case FLOAT, DOUBLE -> Double.toString(r.getDouble(name));
            case STRING -> quoted(r.getString(name));
            case BINARY -> r.getBytesView(name).byteSize() + " bytes";
            case INT32_LIST -> firstValues(Arrays.stream(r.getIntList(name)).asLongStream().toArray());
            case INT64_LIST -> firstValues(r.getLongList(name));
            case FLOAT_LIST -> r.getFloatList(name).length + " floats";
            case DOUBLE_LIST -> r.getDoubleList(name).length + " doubles";
        };
    }

    static boolean megatron(PrintWriter out, PrintWriter err, Path prefix, int show) {
        try (MegatronDataset ds = MegatronDataset.open(prefix)) {
            LengthHistogram h = new LengthHistogram();
            long tokens = 0;
            for (long i = 0; i < ds.size(); i++) {
                h.add(ds.sequenceLength(i));
                tokens += ds.sequenceLength(i);
            }
            out.printf(Locale.ROOT, "%s: Megatron indexed dataset (.idx + .bin), %,d sequences in %,d documents,"
                            + " %,d %s tokens (%s)%s%n", prefix, ds.size(), ds.documentCount(), tokens,
                    ds.dtype().name().toLowerCase(Locale.ROOT), ByteSize.format(Files.size(MegatronDataset.binPath(prefix))),
                    ds.hasModes() ? ", multimodal" : "");
            h.print(out, "sequence lengths", "tokens");
            for (long i = 0; i < Math.min(show, ds.size()); i++) {
                out.println("    " + i + " (document " + ds.documentOf(i) + "): " + firstValues(ds.tokens(i)));
            }
            return true;
        } catch (RuntimeException | IOException e) {
            out.flush();
            err.println(prefix + ": error: " + e.getMessage());
            return false;
        }
    }

    static boolean jsonl(PrintWriter out, PrintWriter err, Path file, int show) {
        if (file.toString().endsWith(".lines")) {
            file = Path.of(file.toString().substring(0, file.toString().length() - ".lines".length()));
        }
        Path sidecar = JsonlDataset.sidecarOf(file);
        LengthHistogram h = new LengthHistogram();
        List<String> first = new ArrayList<>();
        String index;
        try {
            if (Files.isRegularFile(sidecar)) {
                try (JsonlDataset<byte[]> lines = JsonlDataset.lines(file)) {   // checks the sidecar against the file
                    for (long i = 0; i < lines.size(); i++) {
                        byte[] line = lines.get(i);
                        h.add(line.length);
                        if (i < show) {
                            first.add(new String(line, StandardCharsets.UTF_8));
                        }
                    }
                }
                index = "line index " + sidecar.getFileName() + " (" + ByteSize.format(Files.size(sidecar))
                        + ") matches the file";
            } else {
                try (SampleStream<byte[]> lines = JsonlStream.lines(List.of(file))
                        .open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                    while (lines.hasNext()) {
                        byte[] line = lines.next();
                        if (h.count() < show) {
                            first.add(new String(line, StandardCharsets.UTF_8));
                        }
                        h.add(line.length);
                    }
                }
                index = "no line index (JsonlDataset writes " + sidecar.getFileName() + " when it first opens the file;"
                        + " a gzip file is read as a stream)";
            }
            out.printf(Locale.ROOT, "%s: JSONL, %,d lines (%s)%n", file, h.count(), ByteSize.format(Files.size(file)));
            out.println("  " + index);
            h.print(out, "line lengths", "bytes");
            for (int i = 0; i < first.size(); i++) {
                out.println("    " + i + ": " + quoted(first.get(i)));
            }
            return true;
        } catch (RuntimeException | IOException e) {
            out.flush();
            err.println(file + ": error: " + e.getMessage());
            return false;
        }
    }

    private static String firstValues(long[] values) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < Math.min(SHOWN_TOKENS, values.length); i++) {
            s.append(i > 0 ? ", " : "").append(values[i]);
        }
        return s.append(values.length > SHOWN_TOKENS ? ", ... (" + values.length + ")]" : "]").toString();
    }

    private static String quoted(String text) {
        String t = text.replace('\n', ' ');
        return '"' + (t.length() > SHOWN_CHARS ? t.substring(0, SHOWN_CHARS) + "..." : t) + '"';
    }
}
