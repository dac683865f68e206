package dev.stoker.formats.parquet;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which Parquet files make a dataset: one file, every {@code .parquet} file under a folder, or one
 * split of a Hugging Face dataset folder, whose files are named
 * {@code data/{split}-{shard:05d}-of-{count:05d}.parquet} (or sit in {@code {split}/} or
 * {@code data/{split}/} folders, as other Hub datasets do). Files come in name order, so the
 * order of rows is the same on every machine.
 *
 * <pre>{@code
 * List<Path> train = ParquetFiles.huggingFace(Path.of("/data/fineweb"), "train");
 * List<Path> all = ParquetFiles.of(Path.of("/data/shards"));   // a file, or a folder's *.parquet
 * }</pre>
 */
public final class ParquetFiles {
    private static final Pattern SHARD = Pattern.compile("(.+?)-(\\d{5})-of-(\\d{5})\\.parquet");

    private ParquetFiles() {
    }

    /**
     * {@code path} itself when it is a file; otherwise every {@code *.parquet} below it, sorted by
     * path. A {@code .parquet} name below it that is not a regular file (a named pipe, a device, a
     * link to nothing) is refused, naming it: skipped, it would leave a dataset short of a file
     * without a word.
     */
    public static List<Path> of(Path path) {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            if (Files.exists(path)) { // a FIFO, a socket, a device: said as what it is
                requireRegular(path);
            }
            throw new ParquetFormatException(path + ": no such Parquet file or folder");
        }
        try (Stream<Path> walk = Files.walk(path)) {
            List<Path> files = walk.filter(p -> p.getFileName().toString().endsWith(".parquet") && !Files.isDirectory(p))
                    .sorted().toList();
            for (Path f : files) {
                requireRegular(f);
            }
            if (files.isEmpty()) {
                throw new ParquetFormatException(path + ": the folder holds no .parquet file");
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + path, e);
        }
    }

    /** {@link DataFiles#requireRegularFile(Path)}, its refusal (a pipe, a device, a link to nothing) as this format's. */
    private static void requireRegular(Path file) {
        try {
            DataFiles.requireRegularFile(file);
        } catch (IOException e) {
            throw new ParquetFormatException(e.getMessage(), e);
        }
    }

    /**
     * The shards of {@code split} in a Hugging Face dataset folder, sorted by shard number: files
     * {@code {split}-NNNNN-of-MMMMM.parquet} anywhere below {@code root}, or every {@code .parquet}
     * file in a folder named {@code split}. A split whose shards say {@code -of-00042} but are
     * fewer (a download cut short) is refused, naming the missing shard.
     */
    public static List<Path> huggingFace(Path root, String split) {
        List<Path> named = new ArrayList<>();
        List<Path> inFolder = new ArrayList<>();
        int count = -1;
        for (Path p : of(root)) {
            Matcher m = SHARD.matcher(p.getFileName().toString());
            if (m.matches() && m.group(1).equals(split)) {
                int of = Integer.parseInt(m.group(3));
                if (count >= 0 && of != count) {
                    throw new ParquetFormatException(p + ": shard of " + of + " where the split's other shards say "
                            + count);
                }
                count = of;
                named.add(p);
            } else if (p.getParent() != null && p.getParent().getFileName().toString().equals(split)) {
                inFolder.add(p);
            }
        }
        if (!named.isEmpty()) {
            named.sort((a, b) -> shard(a) - shard(b));
            for (int i = 0; i < named.size() || i < count; i++) {
                if (i >= named.size() || shard(named.get(i)) != i) {
                    throw new ParquetFormatException(root + ": split '" + split + "' has " + named.size() + " of its "
                            + count + " shards; shard " + String.format("%05d", i) + " is missing");
                }
            }
            return List.copyOf(named);
        }
        if (inFolder.isEmpty()) {
            throw new ParquetFormatException(root + ": no split '" + split + "' (no " + split
                    + "-NNNNN-of-MMMMM.parquet file and no folder named " + split + ")");
        }
        return List.copyOf(inFolder);
    }

    private static int shard(Path p) {
        Matcher m = SHARD.matcher(p.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(2)) : -1;
    }
}
