package dev.stoker.cli;

import dev.stoker.formats.mds.MdsWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code stoker pack --to mds}: the samples into MosaicML Streaming's MDS format, a column per
 * field: an image folder's images ({@code jpeg} or {@code png}) and class ({@code int}, column
 * {@code cls}), a JSONL file's lines ({@code json}), and for files grouped by key one column per
 * extension ({@code jpeg}, {@code png}, {@code json}, {@code str} for {@code .txt}, {@code int}
 * for {@code .cls}, {@code bytes} for the rest). MDS's columns are the same for every sample.
 */
final class PackMds {
    private PackMds() {}

    /** What was written, for the summary. */
    record Written(long samples, int shards, Map<String, String> columns) {}

    /** The columns of the first sample, by field extension: what every sample must have. */
    static Map<String, String> columns(PackSource source) {
        Map<String, String> columns = new LinkedHashMap<>();
        if (!source.samples().isEmpty()) {
            for (PackSource.Field f : source.samples().getFirst().fields()) {
                columns.put(f.extension(), encoding(f.extension()));
            }
        }
        return columns;
    }

    /** The MDS encoding of a field with this extension. */
    static String encoding(String extension) {
        return switch (extension.toLowerCase(Locale.ROOT)) {
            case "jpg", "jpeg" -> "jpeg";
            case "png" -> "png";
            case "json" -> "json";
            case "txt", "text" -> "str";
            case "cls" -> "int";
            default -> "bytes";
        };
    }

    /** Why the source cannot go into MDS, or null when it can (checked before anything is written). */
    static String problem(PackSource source) {
        if (source.samples().isEmpty()) {
            return "there are no samples to pack";
        }
        Map<String, String> columns = columns(source);
        for (PackSource.Item item : source.samples()) {
            List<String> fields = item.fields().stream().map(PackSource.Field::extension).toList();
            if (!fields.equals(List.copyOf(columns.keySet()))) {
                return "MDS gives every sample the same columns, and sample " + item.key() + " has "
                        + String.join(", ", fields) + " where the first has " + String.join(", ", columns.keySet())
                        + "; pack it --to tar, which takes any fields per sample";
            }
        }
        return null;
    }

    /**
     * Writes {@code order} and commits the writer, reporting each sample to the progress; on a
     * failure the writer is aborted, deleting what it wrote.
     *
     * @throws IOException when an input file cannot be read
     * @throws IllegalArgumentException when a field does not fit its column (a {@code .cls} that
     *     is not a whole number), naming the sample
     */
    static Written write(MdsWriter writer, Map<String, String> columns, List<PackSource.Item> order,
                         PackProgress progress) throws IOException {
        try {
            for (PackSource.Item item : order) {
                Map<String, Object> sample = new LinkedHashMap<>();
                long bytes = 0;
                int files = 0;
                for (PackSource.Field f : item.fields()) {
                    byte[] data = f.read();
                    sample.put(f.extension(), value(columns.get(f.extension()), data, item, f));
                    bytes += data.length;
                    files += f.input() ? 1 : 0;
                }
                writer.write(sample);
                progress.sample(files, bytes);
            }
        } catch (IOException | RuntimeException e) {
            writer.abort(); // deletes what was written: nothing reads as a whole dataset
            throw e;
        }
        writer.commit();
        return new Written(writer.samples(), writer.shards(), columns);
    }

    private static Object value(String encoding, byte[] data, PackSource.Item item, PackSource.Field f) {
        return switch (encoding) {
            case "int" -> {
                String text = new String(data, StandardCharsets.US_ASCII).trim();
                try {
                    yield Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("sample " + item.key() + ": its ." + f.extension()
                            + " field is '" + (text.length() > 20 ? text.substring(0, 20) + "..." : text)
                            + "', not a whole number (MDS column int)");
                }
            }
            case "str" -> new String(data, StandardCharsets.UTF_8);
            default -> data;
        };
    }

    /** The summary's line about the dataset. */
    static void describe(PrintWriter out, Path dir, Written w) {
        out.printf(Locale.ROOT, "  wrote the MDS dataset %s: %d shard%s, columns %s%n", dir, w.shards(),
                w.shards() == 1 ? "" : "s", w.columns().entrySet().stream()
                        .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(", ")));
    }
}
