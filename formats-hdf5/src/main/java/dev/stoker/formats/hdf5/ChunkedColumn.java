package dev.stoker.formats.hdf5;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.exceptions.HdfException;
import io.jhdf.storage.HdfBackingStorage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A chunked dataset (compressed or not) read chunk by chunk: {@link ChunkTable} (the file's chunk
 * index, checked at open) says where a chunk's stored bytes lie; unfiltered ones are read in place
 * from the file's map, compressed ones decoded by {@link ChunkDecoder}; the part of the chunk that
 * holds row {@code i} is copied into the batch (swapping big-endian elements in that copy). Each
 * thread keeps its last decoded chunks ({@link ChunkCache}), so sequential rows decode a chunk
 * once; shuffled rows over a dataset larger than the cache decode a whole chunk per row, which is
 * why small chunks along the first axis (h5py: {@code chunks=(1, ...)} or a few rows) read fastest.
 */
final class ChunkedColumn implements Hdf5Column {
    /**
     * Decoded chunks each thread keeps per column, in bytes (at least one chunk, whatever its size;
     * 0: none, every row decodes its chunks again). System property {@code stoker.hdf5.chunkCacheBytes},
     * read when an array is opened.
     */
    static final long DEFAULT_CACHE_BYTES = 8L << 20;

    private final Path file;
    private final SampleLayout.Field field;
    private final long rows;
    private final ChunkedDataset dataset;
    private final int[] dims;
    private final int[] chunk;
    private final int[] grid;
    private final ByteOrder order;
    private final ChunkDecoder decoder;
    private final int chunkBytes;
    private final boolean wholeRows;
    private final ChunkTable table;
    private final HdfBackingStorage storage;
    private final MemorySegment fileMap;
    private final long userBlock;
    private final long cacheBytes;
    private final ThreadLocal<ChunkCache> cache;
    private final FillValue fill;
    /** A chunk never written: each element reads as the array's fill value. */
    private static final MemorySegment MISSING = MemorySegment.ofArray(new byte[0]);

    /**
     * @param dims  the dataset's dimensions, each checked to fit an int (jhdf indexes with ints)
     * @param chunk the chunk's dimensions, as many, each at least 1
     * @param table   the checked chunk index, or null to ask jhdf for each chunk
     * @param fileMap the whole file mapped, where chunks stored unfiltered (checked to be chunkBytes
     *                long) are read in place; or null
     * @param fill    what the elements of chunks never written read as
     */
    ChunkedColumn(Path file, SampleLayout.Field field, ChunkedDataset dataset, int[] dims, int[] chunk,
                  ByteOrder order, ChunkDecoder decoder, int chunkBytes, ChunkTable table, HdfBackingStorage storage,
                  MemorySegment fileMap, FillValue fill) {
        this.file = file;
        this.field = field;
        this.rows = dims[0];
        this.dataset = dataset;
        this.dims = dims.clone();
        this.chunk = chunk.clone();
        this.order = order;
        this.decoder = decoder;
        this.chunkBytes = chunkBytes;
        this.table = table;
        this.storage = storage;
        this.fileMap = fileMap;
        this.fill = fill;
        this.userBlock = storage.getUserBlockSize();
        this.grid = grid(dims, chunk);
        boolean whole = true;
        for (int d = 1; d < dims.length; d++) {
            whole &= chunk[d] == dims[d];
        }
        this.wholeRows = whole;
        this.cacheBytes = Math.max(0, Long.getLong("stoker.hdf5.chunkCacheBytes", DEFAULT_CACHE_BYTES));
        this.cache = ThreadLocal.withInitial(() -> new ChunkCache(cacheBytes));
    }

    /** Chunks per axis: ceil(dims / chunk). */
    static int[] grid(int[] dims, int[] chunk) {
        int[] g = new int[dims.length];
        for (int d = 0; d < dims.length; d++) {
            g[d] = (int) ((dims[d] + (long) chunk[d] - 1) / chunk[d]);
        }
        return g;
    }

    @Override
    public SampleLayout.Field field() {
        return field;
    }

    @Override
    public long rows() {
        return rows;
    }

    /** True where the chunks are read in place from the file's map (unfiltered, index checked). */
    @Override
    public boolean mapped() {
        return table != null && fileMap != null && decoder.identity();
    }

    @Override
    public void readRow(long row, Tensor dst) {
        try {
            read(row, dst);
        } catch (Hdf5FormatException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) { // jhdf's, or Java's from a corrupt index
            throw new Hdf5FormatException(file, row, where(), "cannot read row " + row + ": "
                    + Hdf5Dataset.describe(e), e);
        }
    }

    private void read(long row, Tensor dst) {
        if (field.bytes() == 0) {
            return;
        }
        int rank = dims.length;
        int first = (int) (row / chunk[0]);
        int local = (int) (row - (long) first * chunk[0]);
        int elementSize = field.dtype().byteSize();
        if (wholeRows) { // the chunk holds whole rows: one copy
            long rowElements = field.shape().elements();
            int[] at = new int[rank];
            at[0] = first;
            copy(chunkAt(at), local * rowElements, dst, 0, rowElements, elementSize);
            return;
        }
        // Visit every chunk of the row's slab; in each, copy the runs along the last axis.
        int[] at = new int[rank];
        at[0] = first;
        long[] strides = rowStrides();
        do {
            MemorySegment bytes = chunkAt(at);
            copyRuns(bytes, at, local, dst, strides, elementSize);
        } while (next(at));
    }

    /** Row-major strides (in elements) of one row of the dataset: axes 1.. of dims. */
    private long[] rowStrides() {
        long[] s = new long[dims.length];
        long n = 1;
        for (int d = dims.length - 1; d >= 1; d--) {
            s[d] = n;
            n *= dims[d];
        }
        return s;
    }

    /** Advances the chunk coordinate {@code at} over axes 1..rank-1; false after the last. */
    private boolean next(int[] at) {
        for (int d = at.length - 1; d >= 1; d--) {
            if (++at[d] < grid[d]) {
                return true;
            }
            at[d] = 0;
        }
        return false;
    }

    private void copyRuns(MemorySegment bytes, int[] at, int local, Tensor dst, long[] strides, int elementSize) {
        int rank = dims.length;
        int last = rank - 1;
        if (rank == 1) {
            copy(bytes, local, dst, 0, 1, elementSize);
            return;
        }
        int[] extent = new int[rank]; // how much of the chunk lies inside the dataset, per axis
        for (int d = 1; d < rank; d++) {
            extent[d] = Math.min(chunk[d], dims[d] - at[d] * chunk[d]);
        }
        int[] i = new int[rank]; // position inside the chunk along axes 1..last-1
        while (true) {
            long src = local;
            long dstAt = 0;
            for (int d = 1; d < rank; d++) {
                src = src * chunk[d] + i[d];
                dstAt += ((long) at[d] * chunk[d] + i[d]) * strides[d];
            }
            copy(bytes, src, dst, dstAt, extent[last], elementSize);
            int d = last - 1;
            while (d >= 1 && ++i[d] == extent[d]) {
                i[d] = 0;
                d--;
            }
            if (d < 1) {
                return;
            }
        }
    }

    /** Copies {@code count} elements from chunk element {@code src} to dst element {@code dstAt} (the fill value if missing). */
    private void copy(MemorySegment in, long src, Tensor dst, long dstAt, long count, int elementSize) {
        MemorySegment out = dst.segment();
        if (in == MISSING) {
            fill.write(out, dstAt * elementSize, count);
            return;
        }
        ValueLayout element = field.dtype().layout();
        if (order == ByteOrder.nativeOrder() || elementSize == 1) {
            MemorySegment.copy(in, src * elementSize, out, dstAt * elementSize, count * elementSize);
        } else {
            MemorySegment.copy(in, element.withOrder(order), src * elementSize, out, element, dstAt * elementSize, count);
        }
    }

    /** The decoded chunk at chunk coordinate {@code at}, from this thread's cache or the file. */
    private MemorySegment chunkAt(int[] at) {
        long key = 0;
        for (int d = 0; d < at.length; d++) {
            key = key * grid[d] + at[d];
        }
        if (table != null) {
            ChunkTable.Stored s = table.get(key);
            if (s == null) {
                return MISSING; // never written: the fill value
            }
            if (fileMap != null && decoder.identity()) { // stored as it is: read it in place, like a contiguous array
                return fileMap.asSlice(userBlock + s.address(), chunkBytes); // size checked at open
            }
        }
        if (cacheBytes == 0) {
            return segment(load(at, key));
        }
        ChunkCache c = cache.get();
        byte[] bytes = c.get(key);
        if (bytes == null) {
            bytes = load(at, key);
            c.put(key, bytes);
        }
        return segment(bytes);
    }

    private static MemorySegment segment(byte[] chunk) {
        return chunk == ChunkCache.MISSING ? MISSING : MemorySegment.ofArray(chunk);
    }

    private byte[] load(int[] at, long key) {
        if (table != null) {
            ChunkTable.Stored s = table.get(key);
            if (s == null) {
                return ChunkCache.MISSING; // never written: the fill value
            }
            ByteBuffer stored = storage.map(s.address(), s.size()); // checked against the file at open
            byte[] raw = new byte[stored.remaining()];
            stored.get(raw);
            return decoder.decode(raw, s.filterMask(), chunkName(at));
        }
        String name = chunkName(at);
        int[] offset = new int[at.length];
        for (int d = 0; d < at.length; d++) {
            offset[d] = at[d] * chunk[d];
        }
        ByteBuffer stored;
        try {
            stored = dataset.getRawChunkBuffer(offset);
        } catch (HdfException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("No chunk with offset")) {
                return ChunkCache.MISSING; // never written: the fill value
            }
            throw e;
        }
        if (stored.remaining() > decoder.maxStoredBytes()) {
            throw new Hdf5FormatException(where() + ": row " + (long) at[0] * chunk[0] + "+: " + name + " is stored in " + stored.remaining()
                    + " bytes, more than any encoding of " + chunkBytes + " bytes takes: corrupt");
        }
        byte[] raw = new byte[stored.remaining()];
        stored.get(raw);
        return decoder.decode(raw, null, name);
    }

    private String chunkName(int[] at) {
        long[] offset = new long[at.length];
        for (int d = 0; d < at.length; d++) {
            offset[d] = (long) at[d] * chunk[d];
        }
        return "chunk " + Arrays.toString(offset);
    }

    private String where() {
        return file + ": dataset '" + field.name() + "'";
    }
}
