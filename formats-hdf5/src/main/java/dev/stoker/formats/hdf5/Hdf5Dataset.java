package dev.stoker.formats.hdf5;

import dev.stoker.data.DataFiles;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.tensor.Tensor;
import io.jhdf.HdfFile;
import io.jhdf.exceptions.HdfException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A map-style dataset over one or more arrays of an HDF5 file (as h5py writes them) that share
 * their first axis: sample {@code i} is {@code {name: array[i]}} for each named array, e.g. an
 * image array {@code data (N, 3, 64, 64) f32} with its {@code labels (N,) i64}. The file is opened
 * read-only.
 *
 * <p>Three ways of reading, chosen per array:
 * <ul>
 *   <li>contiguous and unfiltered (h5py's default): jhdf reads only the structure (type, shape,
 *       where the bytes start); the bytes are memory-mapped once and each row is copied straight
 *       from the page cache into the batch (big-endian arrays are swapped in that same copy);
 *   <li>chunked and unfiltered: the same, chunk by chunk: the file's chunk index (read once, at
 *       open) says where each chunk lies in the map; as fast as contiguous;
 *   <li>chunked and compressed (gzip, shuffle, fletcher32, lzf): each chunk a row needs is decoded
 *       by Stoker (a chunk of 48 KiB inflates in about 0.2 ms) and kept in a small per-thread
 *       cache (8 MiB per array; system property {@code stoker.hdf5.chunkCacheBytes}, 0 for
 *       none), so rows read in order decode each chunk once; shuffled rows decode a whole chunk
 *       per row, so keep such chunks to one or a few rows ({@code chunks=(1, ...)} in h5py), or
 *       rewrite the file contiguous ({@code h5repack -l CONTI}). {@link #mapped(String)} tells
 *       which path an array takes. lz4 and bitshuffle are refused: their chunk headers carry sizes
 *       jhdf allocates from unchecked.
 * </ul>
 * What was never written reads as h5py reads it: a chunk never written, or a contiguous array
 * never written (HDF5 allocates its bytes at the first write), holds the array's fill value (0
 * where none was set, or where its fill time is "never"). An array whose extensible array chunk
 * index (newer file format, one unlimited dimension) has a chunk never written before written
 * ones is refused: jhdf 0.13 loses the chunks after such a gap.
 *
 * <p>The file is untrusted input. jhdf reads its structure through a storage that checks every read
 * against the file's length, caps metadata blocks and the metadata read in all (a cycle of
 * headers or B-tree nodes ends in an error, not a hang); every shape, chunk and chunk address is
 * checked before anything is allocated or mapped from it, and rows, chunks and samples have
 * limits ({@link Hdf5Columns}). A truncated or corrupt file fails with an
 * {@link Hdf5FormatException} naming the file and the array: in {@link #open} where the
 * structure shows it, else when the damaged row is read.
 *
 * <p>It is a {@link FillableDataset}: the loader gives it the batch's rows and it fills them,
 * with no allocation per sample. The batch is a map from array name (its path without the
 * leading {@code /}) to a tensor {@code (n, ...row shape)}; a one-dimensional array such as the
 * labels gives {@code (n)}.
 *
 * <pre>{@code
 * try (Hdf5Dataset ds = Hdf5Dataset.open(Path.of("data.h5"), "data", "labels");
 *      DataLoader<Map<String, Object>> loader = DataLoader.builder(ds).batchSize(64).shuffle(true).build()) {
 *     for (Batch<Map<String, Object>> b : loader) { Tensor x = (Tensor) b.value().get("data"); ... }
 * }
 * }</pre>
 *
 * Close it after the loaders that use it: closing unmaps the file.
 */
public final class Hdf5Dataset implements FillableDataset<Map<String, Tensor>>, AutoCloseable {
    private final Path file;
    private final long fileSize; // when opened: a fault on the map is named with it
    private final HdfFile hdf;
    private final Arena arena;
    private final List<Hdf5Column> columns;
    private final SampleLayout layout;
    private final long rows;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Hdf5Dataset(Path file, long fileSize, HdfFile hdf, Arena arena, List<Hdf5Column> columns) {
        this.file = file;
        this.fileSize = fileSize;
        this.hdf = hdf;
        this.arena = arena;
        this.columns = List.copyOf(columns);
        this.layout = new SampleLayout(SampleLayout.Form.MAP, columns.stream().map(Hdf5Column::field).toList());
        this.rows = columns.getFirst().rows();
    }

    /**
     * Opens {@code file} and the arrays at {@code paths} (e.g. {@code "data"}, {@code "group/labels"}).
     *
     * @throws Hdf5FormatException when the file cannot be read, an array is missing, has an element
     *                             type Stoker does not read, is a scalar, lies beyond the end of the
     *                             file, or the arrays' first dimensions differ
     */
    public static Hdf5Dataset open(Path file, String... paths) {
        Objects.requireNonNull(file, "file");
        if (paths.length == 0) {
            throw new IllegalArgumentException("name at least one array of " + file);
        }
        long fileSize;
        try {
            DataFiles.requireRegularFile(file); // a FIFO would block the opens below, a device read as empty
            fileSize = Files.size(file);
        } catch (IOException e) {
            throw new Hdf5FormatException(file + ": cannot read the file: " + e.getMessage(), e);
        }
        HdfFile hdf;
        try {
            hdf = JhdfFiles.open(file, fileSize);
        } catch (IOException e) {
            throw new Hdf5FormatException(file + ": cannot read the file: " + e, e);
        } catch (RuntimeException | StackOverflowError e) {
            throw new Hdf5FormatException(file + ": not a readable HDF5 file: " + describe(e), e);
        }
        Arena arena = Arena.ofShared();
        try {
            List<Hdf5Column> columns = new ArrayList<>();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                Hdf5Columns.FileMap fileMap = new Hdf5Columns.FileMap(channel, fileSize, arena);
                for (String path : paths) {
                    columns.add(column(file, fileSize, hdf, arena, channel, fileMap, path));
                }
            }
            Hdf5Column first = columns.getFirst();
            for (Hdf5Column c : columns) {
                if (c.rows() != first.rows()) {
                    throw new Hdf5FormatException(file + ": the arrays must share their first dimension, but '"
                            + first.field().name() + "' has " + first.rows() + " rows and '" + c.field().name()
                            + "' has " + c.rows());
                }
            }
            return new Hdf5Dataset(file, fileSize, hdf, arena, columns);
        } catch (IOException e) {
            closeQuietly(arena, hdf);
            throw new Hdf5FormatException(file + ": cannot map the file: " + e, e);
        } catch (RuntimeException | StackOverflowError e) {
            closeQuietly(arena, hdf);
            if (e instanceof Hdf5FormatException f) {
                throw f;
            }
            throw new Hdf5FormatException(file + ": cannot read the file's structure: " + describe(e), e);
        }
    }

    private static void closeQuietly(Arena arena, HdfFile hdf) {
        arena.close();
        try {
            JhdfFiles.close(hdf);
        } catch (RuntimeException ignored) {
            // the open failed already; that error is the one to report
        }
    }

    /**
     * A thrown thing as a message, with its causes: jhdf wraps the reason ("Failed to load children
     * of group '/'") around the detail ("bytes [...) lie outside the file"); Java's own runtime
     * exceptions need their type to make sense.
     */
    static String describe(Throwable e) {
        StringBuilder s = new StringBuilder();
        int depth = 0;
        for (Throwable t = e; t != null && depth < 4; t = t.getCause() == t ? null : t.getCause(), depth++) {
            s.append(depth == 0 ? "" : ": ");
            s.append(t instanceof HdfException && t.getMessage() != null ? t.getMessage() : t.toString());
        }
        return s.toString();
    }

    private static Hdf5Column column(Path file, long fileSize, HdfFile hdf, Arena arena, FileChannel channel,
                                     Hdf5Columns.FileMap fileMap, String path) throws IOException {
        String name = path.startsWith("/") ? path.substring(1) : path;
        try {
            return Hdf5Columns.of(file, fileSize, hdf, arena, channel, fileMap, name);
        } catch (Hdf5FormatException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            throw new Hdf5FormatException(file + ": array '" + name + "': cannot read its structure (type, shape,"
                    + " layout, chunk index): " + describe(e), e);
        }
    }

    @Override
    public long size() {
        return rows;
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    /**
     * Whether the array named {@code name} is read in place from the memory map (contiguous, or
     * chunked and unfiltered); false where its chunks are decoded (compressed) or jhdf reads it.
     */
    public boolean mapped(String name) {
        return columns.get(position(name)).mapped();
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        Objects.checkIndex(index, rows);
        try {
            for (int f = 0; f < columns.size(); f++) {
                columns.get(f).readRow(index, slot.tensor(f));
            }
            MapFaults.deliverPending();
        } catch (InternalError e) { // the file was cut short under its map: name it (free until it happens)
            throw MapFaults.changed(e, file, fileSize, "row " + index);
        }
    }

    /** Sample {@code index} as a map from array name to a fresh tensor of its row. */
    @Override
    public Map<String, Tensor> get(long index) {
        Objects.checkIndex(index, rows);
        Map<String, Tensor> sample = new LinkedHashMap<>();
        for (Hdf5Column c : columns) {
            // On the heap: freed by the young-generation GC at once, where a native Arena.ofAuto()
            // segment waits for a Cleaner and lets the process grow (twice the RSS, half the speed).
            long[] words = new long[Math.toIntExact((c.field().bytes() + 7) / 8)];
            Tensor t = new Tensor(MemorySegment.ofArray(words), c.field().dtype(), c.field().shape());
            try {
                c.readRow(index, t);
                MapFaults.deliverPending();
            } catch (InternalError e) {
                throw MapFaults.changed(e, file, fileSize, "row " + index);
            }
            sample.put(c.field().name(), t);
        }
        return sample;
    }

    @Override
    public String name() {
        return "Hdf5Dataset(" + file.getFileName() + ": " + layout + ")";
    }

    /** Unmaps the file and closes it (again: nothing); use no loader over this dataset afterwards. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
            JhdfFiles.close(hdf);
        }
    }

    private int position(String name) {
        String n = name.startsWith("/") ? name.substring(1) : name;
        int p = layout.indexOf(n);
        if (p < 0) {
            throw new IllegalArgumentException("no array '" + name + "' in " + name());
        }
        return p;
    }
}
