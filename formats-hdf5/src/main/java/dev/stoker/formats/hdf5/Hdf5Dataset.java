package dev.stoker.formats.hdf5;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.exceptions.HdfException;
import io.jhdf.object.message.DataLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>Two ways of reading, chosen per array:
 * <ul>
 *   <li>contiguous and unfiltered (h5py's default): jhdf reads only the structure (type, shape,
 *       where the bytes start); the bytes are memory-mapped once and each row is copied straight
 *       from the page cache into the batch (big-endian arrays are swapped in that same copy);
 *   <li>chunked or compressed (gzip, shuffle, lzf): read through jhdf's slicing, which is correct
 *       but about 50x slower and serialised on the file. Rewrite the file contiguous
 *       ({@code h5repack -l CONTI}) when speed matters; {@link #mapped(String)} tells which.
 * </ul>
 * Every offset and size read from the file is checked against the file's length before mapping;
 * a truncated or corrupt file fails in {@link #open} with an {@link Hdf5FormatException} naming
 * the file and the array.
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
    private final HdfFile hdf;
    private final Arena arena;
    private final List<Hdf5Column> columns;
    private final SampleLayout layout;
    private final long rows;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Hdf5Dataset(Path file, HdfFile hdf, Arena arena, List<Hdf5Column> columns) {
        this.file = file;
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
            fileSize = Files.size(file);
        } catch (IOException e) {
            throw new Hdf5FormatException(file + ": cannot read the file: " + e, e);
        }
        HdfFile hdf;
        try {
            hdf = new HdfFile(file);
        } catch (HdfException | IllegalArgumentException | IndexOutOfBoundsException
                 | java.nio.BufferUnderflowException e) {
            throw new Hdf5FormatException(file + ": not a readable HDF5 file: " + e.getMessage(), e);
        }
        Arena arena = Arena.ofShared();
        try {
            List<Hdf5Column> columns = new ArrayList<>();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                for (String path : paths) {
                    columns.add(column(file, fileSize, hdf, arena, channel, path));
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
            return new Hdf5Dataset(file, hdf, arena, columns);
        } catch (IOException e) {
            arena.close();
            hdf.close();
            throw new Hdf5FormatException(file + ": cannot map the file: " + e, e);
        } catch (RuntimeException e) {
            arena.close();
            hdf.close();
            if (e instanceof Hdf5FormatException || e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new Hdf5FormatException(file + ": cannot read the file's structure: " + e, e);
        }
    }

    private static Hdf5Column column(Path file, long fileSize, HdfFile hdf, Arena arena, FileChannel channel,
                                     String path) throws IOException {
        String name = path.startsWith("/") ? path.substring(1) : path;
        Node node;
        try {
            node = hdf.getByPath(name);
        } catch (HdfException e) {
            throw new Hdf5FormatException(file + ": no array '" + name + "': " + e.getMessage(), e);
        }
        if (!(node instanceof Dataset dataset)) {
            throw new Hdf5FormatException(file + ": '" + name + "' is a " + node.getType() + ", not an array");
        }
        var dtype = Hdf5Types.dtypeOf(dataset.getDataType()).orElseThrow(() -> new Hdf5FormatException(
                file + ": array '" + name + "' holds " + Hdf5Types.describe(dataset.getDataType())
                        + ", which Stoker does not read (integers of 1-8 bytes, floats of 2, 4 or 8)"));
        long[] dims = dataset.getDimensionsAsLong();
        if (dims.length == 0) {
            throw new Hdf5FormatException(file + ": array '" + name + "' is a scalar; it needs a first axis to index");
        }
        for (long d : dims) {
            if (d < 0) {
                throw new Hdf5FormatException(file + ": array '" + name + "' has a negative dimension: "
                        + Arrays.toString(dims));
            }
        }
        SampleLayout.Field field = new SampleLayout.Field(name, dtype, Shape.of(Arrays.copyOfRange(dims, 1, dims.length)));
        long rows = dims[0];
        long bytes;
        try {
            bytes = Math.multiplyExact(rows, field.bytes());
        } catch (ArithmeticException e) {
            throw new Hdf5FormatException(file + ": array '" + name + "' of shape " + Arrays.toString(dims)
                    + " is too large to address");
        }
        boolean plain = dataset.getDataLayout() == DataLayout.CONTIGUOUS && dataset instanceof ContiguousDataset
                && dataset.getFilters().isEmpty();
        if (!plain) {
            return new JhdfColumn(file, field, rows, dataset, hdf);
        }
        if (bytes == 0) {
            return new MappedColumn(field, rows, MemorySegment.NULL, Hdf5Types.orderOf(dataset.getDataType()));
        }
        long address = ((ContiguousDataset) dataset).getDataAddress();
        long start = address + hdf.getUserBlockSize();
        if (address < 0 || start < 0 || start > fileSize || bytes > fileSize - start) {
            throw new Hdf5FormatException(file + ": array '" + name + "' " + field + " x " + rows
                    + " needs bytes [" + Long.toUnsignedString(start) + ", +" + bytes + ") but the file has "
                    + fileSize + " bytes: truncated or corrupt");
        }
        MemorySegment data = channel.map(FileChannel.MapMode.READ_ONLY, start, bytes, arena);
        return new MappedColumn(field, rows, data, Hdf5Types.orderOf(dataset.getDataType()));
    }

    @Override
    public long size() {
        return rows;
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    /** Whether the array named {@code name} is read through the memory map (else through jhdf). */
    public boolean mapped(String name) {
        return columns.get(position(name)).mapped();
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        Objects.checkIndex(index, rows);
        for (int f = 0; f < columns.size(); f++) {
            columns.get(f).readRow(index, slot.tensor(f));
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
            c.readRow(index, t);
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
            hdf.close();
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
