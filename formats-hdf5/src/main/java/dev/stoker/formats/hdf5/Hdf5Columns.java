package dev.stoker.formats.hdf5;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.exceptions.HdfException;
import io.jhdf.object.message.DataLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Builds the column of one array, checking every size the file gives before anything is
 * allocated or mapped from it: the shape against {@link #MAX_ROW_BYTES} and the file's length,
 * a contiguous array's bytes against the file, a chunked array's chunk against
 * {@link #MAX_CHUNK_BYTES} and its filters against what {@link ChunkDecoder} decodes.
 */
final class Hdf5Columns {
    /** The largest row (one sample of one array) Stoker reads: a batch holds many. */
    static final long MAX_ROW_BYTES = 1L << 30;
    /** The largest decoded chunk; HDF5 allows 4 GiB, h5py picks about 1 MiB at most. */
    static final long MAX_CHUNK_BYTES = 256L << 20;
    /**
     * How many times its file's size a chunked array may claim: deflate, the best-packing filter
     * Stoker reads, cannot exceed about 1032:1, so a larger claim is a corrupt dataspace, or an
     * array almost entirely never written (its chunks or bytes not allocated: the fill value),
     * which is refused with it: nothing else bounds the memory such an array's rows claim.
     */
    static final long MAX_EXPANSION = 1100;
    /** HDF5's undefined address (all bits set): storage not allocated yet. */
    private static final long UNDEFINED_ADDRESS = -1L;

    private Hdf5Columns() {
    }

    /** The whole file mapped once, on first need (by an unfiltered chunked array), into the dataset's arena. */
    static final class FileMap {
        private final FileChannel channel;
        private final long fileSize;
        private final Arena arena;
        private MemorySegment map;

        FileMap(FileChannel channel, long fileSize, Arena arena) {
            this.channel = channel;
            this.fileSize = fileSize;
            this.arena = arena;
        }

        MemorySegment get() throws IOException {
            if (map == null) {
                map = channel.map(FileChannel.MapMode.READ_ONLY, 0, fileSize, arena);
            }
            return map;
        }
    }

    static Hdf5Column of(Path file, long fileSize, HdfFile hdf, Arena arena, FileChannel channel, FileMap fileMap,
                         String name) throws IOException {
        String where = file + ": array '" + name + "'";
        Node node;
        try {
            node = hdf.getByPath(name);
        } catch (HdfException e) {
            throw new Hdf5FormatException(file + ": no array '" + name + "' (missing, or a group on its path is"
                    + " corrupt): " + Hdf5Dataset.describe(e), e);
        }
        if (!(node instanceof Dataset dataset)) {
            throw new Hdf5FormatException(where + " is a " + node.getType() + ", not an array");
        }
        DType dtype = Hdf5Types.dtypeOf(dataset.getDataType()).orElseThrow(() -> new Hdf5FormatException(
                where + " holds " + Hdf5Types.describe(dataset.getDataType())
                        + ", which Stoker does not read (integers of 1-8 bytes, floats of 2, 4 or 8)"));
        long[] dims = dataset.getDimensionsAsLong();
        if (dims.length == 0) {
            throw new Hdf5FormatException(where + " is a scalar; it needs a first axis to index");
        }
        for (long d : dims) {
            if (d < 0) {
                throw new Hdf5FormatException(where + " has a negative dimension: " + Arrays.toString(dims));
            }
        }
        long rowElements = 1;
        for (int d = 1; d < dims.length; d++) {
            rowElements = multiply(rowElements, dims[d]);
        }
        long rowBytes = multiply(rowElements, dtype.byteSize());
        long bytes = multiply(rowBytes, dims[0]);
        if (rowBytes > MAX_ROW_BYTES || bytes == Long.MAX_VALUE) {
            throw new Hdf5FormatException(where + " of shape " + Arrays.toString(dims) + " " + dtype + " has rows of "
                    + (rowBytes == Long.MAX_VALUE ? "more than 2^63" : rowBytes) + " bytes (the limit is "
                    + MAX_ROW_BYTES + ") or more than 2^63 bytes in all: corrupt");
        }
        if (dims[0] / MAX_EXPANSION > fileSize) {
            throw new Hdf5FormatException(where + " of shape " + Arrays.toString(dims) + " claims " + dims[0]
                    + " rows in a file of " + fileSize + " bytes: corrupt");
        }
        SampleLayout.Field field = new SampleLayout.Field(name, dtype, Shape.of(Arrays.copyOfRange(dims, 1, dims.length)));
        long rows = dims[0];
        var order = Hdf5Types.orderOf(dataset.getDataType());
        DataLayout layout = dataset.getDataLayout();
        if (layout == DataLayout.CHUNKED && dataset instanceof ChunkedDataset chunked) {
            return chunked(file, fileSize, hdf, chunked, field, dims, bytes, where, fileMap);
        }
        boolean plain = layout == DataLayout.CONTIGUOUS && dataset instanceof ContiguousDataset
                && dataset.getFilters().isEmpty();
        if (!plain) { // compact (the bytes live in the object header) or something jhdf alone reads
            if (bytes > fileSize) {
                throw new Hdf5FormatException(where + " " + layout + " of shape " + Arrays.toString(dims)
                        + " claims " + bytes + " bytes, more than the file's " + fileSize + ": corrupt");
            }
            return new JhdfColumn(file, field, rows, dataset, hdf);
        }
        if (bytes == 0) {
            return new MappedColumn(field, rows, MemorySegment.NULL, order);
        }
        long address = ((ContiguousDataset) dataset).getDataAddress();
        if (address == UNDEFINED_ADDRESS) { // never written: HDF5 allocates at the first write
            return unwritten(fileSize, dataset, field, dims, bytes, where);
        }
        long start = address + hdf.getUserBlockSize();
        if (address < 0 || start < 0 || start > fileSize || bytes > fileSize - start) {
            throw new Hdf5FormatException(where + " " + field + " x " + rows + " needs bytes ["
                    + Long.toUnsignedString(start) + ", +" + bytes + ") but the file has " + fileSize
                    + " bytes: truncated or corrupt");
        }
        MemorySegment data = channel.map(FileChannel.MapMode.READ_ONLY, start, bytes, arena);
        return new MappedColumn(field, rows, data, order);
    }

    private static Hdf5Column chunked(Path file, long fileSize, HdfFile hdf, ChunkedDataset dataset,
                                      SampleLayout.Field field,
                                      long[] dims, long bytes, String where, FileMap fileMap) throws IOException {
        if (bytes / MAX_EXPANSION > fileSize) {
            throw new Hdf5FormatException(where + " of shape " + Arrays.toString(dims) + " claims " + bytes
                    + " bytes, more than " + MAX_EXPANSION + " times the file's " + fileSize + ": corrupt, or"
                    + " almost all of it never written (its fill value); refused either way, as nothing else bounds"
                    + " the memory its rows claim");
        }
        int[] intDims = new int[dims.length];
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] > Integer.MAX_VALUE) {
                throw new Hdf5FormatException(where + " of shape " + Arrays.toString(dims)
                        + " is chunked with a dimension past 2^31, which jhdf does not index");
            }
            intDims[d] = (int) dims[d];
        }
        int[] chunk = dataset.getChunkDimensions();
        if (chunk == null || chunk.length != dims.length) {
            throw new Hdf5FormatException(where + " of shape " + Arrays.toString(dims) + " has chunks of shape "
                    + Arrays.toString(chunk) + ": corrupt");
        }
        long chunkBytes = field.dtype().byteSize();
        for (int c : chunk) {
            if (c < 1) {
                throw new Hdf5FormatException(where + " has chunks of shape " + Arrays.toString(chunk) + ": corrupt");
            }
            chunkBytes = multiply(chunkBytes, c);
        }
        if (chunkBytes > MAX_CHUNK_BYTES) {
            throw new Hdf5FormatException(where + " has chunks of shape " + Arrays.toString(chunk) + " ("
                    + chunkBytes + " bytes decoded; the limit is " + MAX_CHUNK_BYTES + "): corrupt, or rechunk it");
        }
        ChunkDecoder decoder = ChunkDecoder.of(dataset, field.dtype().byteSize(), (int) chunkBytes, where);
        // The chunk index is read and checked now, so that a corrupt one fails the open, not a batch.
        ChunkTable table = ChunkTable.of(dataset, intDims, chunk, ChunkedColumn.grid(intDims, chunk), fileSize,
                hdf.getUserBlockSize(), decoder.maxStoredBytes(), where);
        if (table == null) {
            dataset.isEmpty(); // jhdf's index, read now all the same
        } else {
            ExtensibleArrayCheck.check(dataset, hdf.getHdfBackingStorage(), table.size(), where);
        }
        MemorySegment inPlace = null;
        if (table != null && decoder.identity()) {
            ChunkTable.Stored odd = table.sizedOtherThan((int) chunkBytes);
            if (odd != null) {
                throw new Hdf5FormatException(where + ": an unfiltered chunk at " + odd.address() + " is stored in "
                        + odd.size() + " bytes, not " + chunkBytes + ": corrupt");
            }
            inPlace = fileMap.get();
        }
        var order = Hdf5Types.orderOf(dataset.getDataType());
        return new ChunkedColumn(file, field, dataset, intDims, chunk, order, decoder, (int) chunkBytes, table,
                hdf.getHdfBackingStorage(), inPlace, FillValue.of(dataset, field.dtype().byteSize(), order, where));
    }

    /** A contiguous array with no bytes yet: its fill value, within the same limits as a chunked array's. */
    private static Hdf5Column unwritten(long fileSize, Dataset dataset, SampleLayout.Field field, long[] dims,
                                        long bytes, String where) {
        if (bytes / MAX_EXPANSION > fileSize) {
            throw new Hdf5FormatException(where + " of shape " + Arrays.toString(dims) + " was never written and"
                    + " claims " + bytes + " bytes, more than " + MAX_EXPANSION + " times the file's " + fileSize
                    + ": corrupt (or an array to write before reading it)");
        }
        FillValue fill = FillValue.of(dataset, field.dtype().byteSize(), Hdf5Types.orderOf(dataset.getDataType()), where);
        if (!fill.stated()) { // HDF5 too: "dataset doesn't exist, no data can be read"
            throw new Hdf5FormatException(where + " was never written (its layout has no address) and states no fill"
                    + " value: HDF5 cannot read it either");
        }
        return new FilledColumn(field, dims[0], fill);
    }

    /** a * b, or Long.MAX_VALUE when it overflows (both are non-negative). */
    private static long multiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long p = a * b;
        return high != 0 || p < 0 ? Long.MAX_VALUE : p;
    }
}
