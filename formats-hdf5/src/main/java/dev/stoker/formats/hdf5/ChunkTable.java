package dev.stoker.formats.hdf5;

import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.dataset.chunked.Chunk;
import io.jhdf.dataset.chunked.ChunkedDatasetBase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each stored chunk of a chunked array lies, by its position in the chunk grid, read once
 * from the file's chunk index (jhdf parses the B-tree) and checked then: every chunk on the grid,
 * inside the array, its stored bytes inside the file and no longer than any encoding of a chunk
 * takes. A chunk absent from the table was never written (it reads as the array's fill value), which
 * a lookup answers without jhdf's exception per missing chunk.
 *
 * <p>jhdf keeps the index behind the protected {@code getChunkLookup()}; it is reached by
 * reflection, as {@link JhdfFiles} reaches the storage constructor. {@link #of} gives null where
 * that is not possible, and the column then asks jhdf chunk by chunk.
 */
final class ChunkTable {
    /** A stored chunk: file address (after the user block), stored size, and the filters it skipped. */
    record Stored(long address, int size, BitSet filterMask) {
    }

    private static final Method LOOKUP = lookup();
    private static final long UNDEFINED_ADDRESS = -1L;

    private final Map<Long, Stored> chunks;

    private ChunkTable(Map<Long, Stored> chunks) {
        this.chunks = chunks;
    }

    /** The chunk at grid key {@code key} (row-major over the grid), or null where none was written. */
    Stored get(long key) {
        return chunks.get(key);
    }

    int size() {
        return chunks.size();
    }

    /** A stored chunk whose size is not {@code bytes} (unfiltered chunks are stored exactly), or null. */
    Stored sizedOtherThan(int bytes) {
        for (Stored s : chunks.values()) {
            if (s.size() != bytes) {
                return s;
            }
        }
        return null;
    }

    /**
     * Reads and checks the index of {@code dataset} ({@code dims} and {@code chunk} already
     * checked, {@code grid} the chunks per axis); null where jhdf's index cannot be reached.
     */
    static ChunkTable of(ChunkedDataset dataset, int[] dims, int[] chunk, int[] grid, long fileSize,
                         long userBlock, long maxStored, String where) {
        if (LOOKUP == null || !(dataset instanceof ChunkedDatasetBase)) {
            return null;
        }
        Map<?, ?> lookup;
        try {
            lookup = (Map<?, ?>) LOOKUP.invoke(dataset);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            return null;
        }
        Map<Long, Stored> chunks = new HashMap<>();
        for (Object value : lookup.values()) {
            Chunk c = (Chunk) value;
            long[] offset = c.getChunkOffset();
            String name = "chunk " + Arrays.toString(offset);
            if (offset.length != dims.length) {
                throw new Hdf5FormatException(where + ": " + name + " has " + offset.length + " coordinates for "
                        + dims.length + " dimensions: corrupt");
            }
            long key = 0;
            for (int d = 0; d < dims.length; d++) {
                if (offset[d] < 0 || offset[d] >= dims[d] || offset[d] % chunk[d] != 0) {
                    throw new Hdf5FormatException(where + ": " + name + " lies off the grid of chunks "
                            + Arrays.toString(chunk) + " in shape " + Arrays.toString(dims) + ": corrupt");
                }
                key = key * grid[d] + offset[d] / chunk[d];
            }
            long address = c.getAddress();
            if (address == UNDEFINED_ADDRESS) {
                continue; // listed but never written (a fixed array index lists every chunk): the fill value
            }
            int size = c.getSize();
            if (size < 0 || size > maxStored || address < 0 || address > fileSize - userBlock
                    || size > fileSize - userBlock - address) {
                throw new Hdf5FormatException(where + ": " + name + " claims " + Integer.toUnsignedString(size)
                        + " bytes at " + Long.toUnsignedString(address) + " (user block " + userBlock + ") in a file of "
                        + fileSize + " bytes, chunks encoding at most " + maxStored + ": truncated or corrupt");
            }
            if (chunks.put(key, new Stored(address, size, c.getFilterMask())) != null) {
                throw new Hdf5FormatException(where + ": " + name + " is indexed twice: corrupt");
            }
        }
        return new ChunkTable(chunks);
    }

    private static Method lookup() {
        try {
            Method m = ChunkedDatasetBase.class.getDeclaredMethod("getChunkLookup");
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
