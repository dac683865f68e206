package dev.stoker.cli;

import dev.stoker.data.DataFormatException;
import dev.stoker.formats.mds.MdsDataset;
import dev.stoker.formats.mds.MdsOptions;
import dev.stoker.formats.mds.MdsSample;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code stoker inspect DIR} for an MDS dataset: its size, shards and columns, and the first
 * samples' values in short. Compressed shards are decompressed into a temporary folder that is
 * deleted after, so inspecting writes nothing beside the data.
 */
final class MdsInspection {
    private MdsInspection() {}

    /** Prints what {@code dir} holds; false (after saying what is wrong) when it is damaged. */
    static boolean inspect(PrintWriter out, PrintWriter err, Path dir, int show) {
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("stoker-inspect-mds");
            try (MdsDataset mds = MdsDataset.open(dir, MdsOptions.defaults().cacheDir(scratch))) {
                List<String> columns = new ArrayList<>();
                for (String c : mds.columns()) {
                    columns.add(c + ":" + mds.encoding(c));
                }
                out.printf(Locale.ROOT, "%s: MDS dataset, %d samples in %d shard%s%n", dir, mds.size(), mds.shards(),
                        mds.shards() == 1 ? "" : "s");
                out.println("  columns: " + String.join(", ", columns));
                for (long i = 0; i < Math.min(show, mds.size()); i++) {
                    MdsSample s = mds.get(i);
                    List<String> values = new ArrayList<>();
                    for (String c : mds.columns()) {
                        values.add(c + "=" + shortValue(s, c, mds.encoding(c)));
                    }
                    out.println("    " + i + ": " + String.join(" ", values));
                }
            }
            return true;
        } catch (DataFormatException | IllegalArgumentException | UncheckedIOException e) {
            out.flush();
            err.println(dir + ": error: " + e.getMessage());
            return false;
        } catch (IOException e) {
            out.flush();
            err.println(dir + ": error: cannot make a temporary folder: " + e.getMessage());
            return false;
        } finally {
            deleteQuietly(scratch);
        }
    }

    /** A value as a line of a listing holds it: numbers, the start of text, a tensor's type, else a size. */
    private static String shortValue(MdsSample s, String column, String encoding) {
        String base = encoding.contains(":") ? encoding.substring(0, encoding.indexOf(':')) : encoding;
        return switch (base) {
            case "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" ->
                    Long.toString(s.longValue(column));
            case "float16", "float32", "float64" -> Double.toString(s.doubleValue(column));
            case "str", "json", "str_int", "str_float", "str_decimal" -> {
                String text = s.string(column).replace('\n', ' ');
                yield '"' + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + '"';
            }
            case "ndarray" -> {
                Tensor t = s.tensor(column);
                yield t.dtype().numpyName() + t.shape();
            }
            default -> s.segment(column).byteSize() + " bytes";
        };
    }

    private static void deleteQuietly(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary folder left behind: the system's cleaner takes it
        }
    }
}
