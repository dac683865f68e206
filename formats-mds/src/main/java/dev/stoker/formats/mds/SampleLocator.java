package dev.stoker.formats.mds;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Finds the columns inside one sample's bytes: first a u32 size for every variable-size column
 * (in column order), then the values in column order, fixed columns taking their column size.
 * The sizes must add up to exactly the sample's length, so every column range found lies inside
 * the sample.
 */
final class SampleLocator {
    private SampleLocator() {
    }

    /** For messages: {@code path: shard 2 (shard.00002.mds), sample 17 (12 in the shard)}. */
    static String where(MdsShard shard, long global, long local) {
        return shard.file().path() + ": " + shard.info().label() + ", sample " + global + " (" + local
                + " in the shard)";
    }

    /**
     * Fills {@code starts} and {@code sizes} (one entry per column) for {@code sample}.
     *
     * @throws MdsFormatException when the sizes do not add up to the sample's length
     */
    static void locate(MdsShard shard, long global, long local, MemorySegment sample, long[] starts, long[] sizes) {
        List<MdsColumn> columns = shard.info().columns();
        int variable = shard.info().variableColumns();
        long length = sample.byteSize();
        long pos = 4L * variable;
        if (pos > length) {
            throw new MdsFormatException(shard.file().path(), global, where(shard, global, local),
                    "the sample is " + length + " bytes, too"
                    + " short for the sizes of its " + variable + " variable-size columns");
        }
        int prefix = 0;
        for (int c = 0; c < columns.size(); c++) {
            MdsColumn col = columns.get(c);
            long size = col.variable() ? Integer.toUnsignedLong(sample.get(MdsShard.U32, 4L * prefix++)) : col.size();
            starts[c] = pos;
            sizes[c] = size;
            pos += size; // at most 64 columns of 2^32 each: no overflow
            if (pos > length) {
                throw new MdsFormatException(shard.file().path(), global,
                        where(shard, global, local) + ", column '" + col.name() + "'",
                        "its " + size + " bytes run past the sample's end (" + length + " bytes)");
            }
        }
        if (pos != length) {
            throw new MdsFormatException(shard.file().path(), global, where(shard, global, local),
                    "the columns add up to " + pos
                    + " bytes but the sample holds " + length);
        }
    }

    /**
     * Where column {@code column} starts, relative to the sample, checking the whole sample as
     * {@link #locate} does but allocating nothing: the fill path's version. The sample is
     * {@code length} bytes at {@code base} in {@code data}.
     */
    static long start(MdsShard shard, long global, long local, MemorySegment data, long base, long length,
                      int column) {
        List<MdsColumn> columns = shard.info().columns();
        int variable = shard.info().variableColumns();
        long pos = 4L * variable;
        if (pos > length) {
            throw new MdsFormatException(shard.file().path(), global, where(shard, global, local),
                    "the sample is " + length + " bytes, too"
                    + " short for the sizes of its " + variable + " variable-size columns");
        }
        long found = -1;
        int prefix = 0;
        for (int c = 0; c < columns.size(); c++) {
            MdsColumn col = columns.get(c);
            long size = col.variable() ? Integer.toUnsignedLong(data.get(MdsShard.U32, base + 4L * prefix++))
                    : col.size();
            if (c == column) {
                found = pos;
            }
            pos += size;
        }
        if (pos != length) {
            throw new MdsFormatException(shard.file().path(), global, where(shard, global, local),
                    "the columns add up to " + pos
                    + " bytes but the sample holds " + length);
        }
        return found;
    }
}
