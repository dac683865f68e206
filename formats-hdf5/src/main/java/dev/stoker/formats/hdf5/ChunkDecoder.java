package dev.stoker.formats.hdf5;

import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.filter.LzfFilter;
import io.jhdf.filter.PipelineFilterWithData;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Undoes a chunk's filter pipeline (deflate, shuffle, fletcher32, lzf) into exactly the chunk's
 * {@code chunkBytes}, never allocating more: jhdf's own deflate grows its output for as long as
 * the stream goes on, and its lz4 and bitshuffle filters allocate whatever size the chunk's header
 * claims, so Stoker decodes itself and refuses the filters whose sizes it cannot check first.
 *
 * <pre>{@code
 * ChunkDecoder d = ChunkDecoder.of(dataset, 4, 4 * 3 * 32 * 32, "data.h5: dataset 'data'");
 * byte[] chunk = d.decode(raw, null, "chunk [0, 0, 0, 0]");   // chunkBytes long, or an Hdf5FormatException
 * }</pre>
 */
final class ChunkDecoder {
    static final int DEFLATE = 1;
    static final int SHUFFLE = 2;
    static final int FLETCHER32 = 3;
    static final int LZF = 32000;

    private final int[] ids;
    private final int[][] data;
    private final int elementSize;
    private final int chunkBytes;
    private final String where;

    private ChunkDecoder(int[] ids, int[][] data, int elementSize, int chunkBytes, String where) {
        this.ids = ids;
        this.data = data;
        this.elementSize = elementSize;
        this.chunkBytes = chunkBytes;
        this.where = where;
    }

    /** The decoder of {@code dataset}'s pipeline; refuses (Hdf5FormatException) a filter it does not decode. */
    static ChunkDecoder of(ChunkedDataset dataset, int elementSize, int chunkBytes, String where) {
        List<PipelineFilterWithData> filters = dataset.getFilters();
        int[] ids = new int[filters.size()];
        int[][] data = new int[filters.size()][];
        for (int i = 0; i < ids.length; i++) {
            PipelineFilterWithData f = filters.get(i);
            ids[i] = f.getId();
            data[i] = f.getFilterData() == null ? new int[0] : f.getFilterData().clone();
            switch (ids[i]) {
                case DEFLATE, SHUFFLE, FLETCHER32 -> { }
                case LZF -> {
                    if (data[i].length < 3 || data[i][2] < 0 || data[i][2] > chunkBytes + 4L * ids.length) {
                        throw new Hdf5FormatException(where + ": its lzf filter claims " + (data[i].length < 3
                                ? "no chunk size" : data[i][2] + " bytes per chunk") + " for chunks of "
                                + chunkBytes + " bytes: corrupt");
                    }
                }
                default -> throw new Hdf5FormatException(where + ": compressed with filter '" + f.getName()
                        + "' (id " + ids[i] + "), which Stoker does not decode (gzip, shuffle, fletcher32, lzf);"
                        + " rewrite it with h5repack -f GZIP=4 or -l CONTI");
            }
        }
        return new ChunkDecoder(ids, data, elementSize, chunkBytes, where);
    }

    /** Whether chunks are stored as they are (no filters). */
    boolean identity() {
        return ids.length == 0;
    }

    /** The largest stored chunk a valid file can hold: deflate and lzf expand incompressible data a little. */
    long maxStoredBytes() {
        return chunkBytes + chunkBytes / 16L + 4096;
    }

    /**
     * Decodes the stored bytes of one chunk (named {@code chunk} in errors) into chunkBytes bytes,
     * skipping the filters whose bit is set in the chunk's {@code filterMask} (null: none skipped).
     */
    byte[] decode(byte[] stored, BitSet filterMask, String chunk) {
        byte[] bytes = stored;
        // Every stage may hold at most the chunk plus the checksums still to strip.
        int fletchers = 0;
        for (int i = 0; i < ids.length; i++) {
            fletchers += ids[i] == FLETCHER32 && !skipped(filterMask, i) ? 1 : 0;
        }
        for (int i = ids.length - 1; i >= 0; i--) {
            if (skipped(filterMask, i)) {
                continue;
            }
            int cap = chunkBytes + 4 * fletchers;
            bytes = switch (ids[i]) {
                case DEFLATE -> inflate(bytes, cap, chunk);
                case SHUFFLE -> unshuffle(bytes, data[i].length > 0 && data[i][0] > 0 ? data[i][0] : elementSize);
                case FLETCHER32 -> {
                    fletchers--;
                    if (bytes.length < 4) {
                        throw new Hdf5FormatException(where + ": " + chunk + " of " + bytes.length
                                + " bytes is too short for its fletcher32 checksum: corrupt");
                    }
                    yield Arrays.copyOf(bytes, bytes.length - 4);
                }
                case LZF -> {
                    if (data[i][2] > cap) {
                        throw new Hdf5FormatException(where + ": " + chunk + ": lzf claims " + data[i][2]
                                + " bytes where at most " + cap + " fit: corrupt");
                    }
                    yield new LzfFilter().decode(bytes, data[i]);
                }
                default -> throw new IllegalStateException("filter " + ids[i] + " passed of()");
            };
        }
        if (bytes.length != chunkBytes) {
            throw new Hdf5FormatException(where + ": " + chunk + " decodes to " + bytes.length
                    + " bytes, but chunks hold " + chunkBytes + ": corrupt");
        }
        return bytes;
    }

    private static boolean skipped(BitSet filterMask, int filter) {
        return filterMask != null && filterMask.get(filter);
    }

    private byte[] inflate(byte[] in, int cap, String chunk) {
        byte[] out = new byte[cap];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(in);
            int n = 0;
            while (!inflater.finished()) {
                if (n == out.length) {
                    throw new Hdf5FormatException(where + ": " + chunk + " inflates to more than " + cap
                            + " bytes: corrupt");
                }
                int got = inflater.inflate(out, n, out.length - n);
                if (got == 0 && !inflater.finished()) { // with room left, zlib stalls only when its input ran out
                    throw new Hdf5FormatException(where + ": " + chunk + ": its deflate stream ends early, after "
                            + n + " bytes: corrupt");
                }
                n += got;
            }
            return n == out.length ? out : Arrays.copyOf(out, n);
        } catch (DataFormatException e) {
            throw new Hdf5FormatException(where + ": " + chunk + ": bad deflate data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    /** HDF5's shuffle stores byte b of every element together; trailing bytes (length % size) stay put. */
    private static byte[] unshuffle(byte[] in, int size) {
        if (size <= 1 || in.length < size) {
            return in;
        }
        int n = in.length / size;
        byte[] out = new byte[in.length];
        for (int b = 0; b < size; b++) {
            int from = b * n;
            for (int i = 0; i < n; i++) {
                out[i * size + b] = in[from + i];
            }
        }
        System.arraycopy(in, n * size, out, n * size, in.length - n * size);
        return out;
    }
}
