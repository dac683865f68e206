package dev.stoker.formats.parquet;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One column of one decoded chunk of a row group (the rows of one batch Hardwood decoded, in the
 * arrays it handed out: see {@link RowGroupDecoder}), held as flat arrays: the values of every row
 * (for lists and binaries, all rows' values end to end, with {@code offsets} marking where row
 * {@code r} starts and ends), and which rows are null. Rows count from the chunk's first. Immutable
 * once built, so that worker threads share it without locks.
 */
final class DecodedColumn {
    final ParquetColumn column;
    final int rows;
    final long[] longs;
    final int[] ints;
    final float[] floats;
    final double[] doubles;
    final byte[] bytes;
    /** Rows + 1 entries for lists and binaries; {@code null} for scalars. */
    final int[] offsets;
    /** A set bit for each null row; {@code null} when no row is null. */
    final long[] nullRows;
    /** A set bit for each null list element; {@code null} when none is. */
    final long[] nullElements;
    /**
     * For a list column with no null row and no null element whose rows all hold the same number
     * of values, that number; otherwise -1. Lets the fill path check a run of rows in O(1).
     */
    final int uniformLength;

    DecodedColumn(ParquetColumn column, int rows, Object values, byte[] bytes, int[] offsets, long[] nullRows,
            long[] nullElements) {
        this.column = column;
        this.rows = rows;
        this.longs = values instanceof long[] a ? a : null;
        this.ints = values instanceof int[] a ? a : null;
        this.floats = values instanceof float[] a ? a : null;
        this.doubles = values instanceof double[] a ? a : null;
        this.bytes = bytes;
        this.offsets = offsets;
        this.nullRows = nullRows;
        this.nullElements = nullElements;
        this.uniformLength = column.kind().isList() ? uniform(rows, offsets, nullRows, nullElements) : -1;
    }

    private static int uniform(int rows, int[] offsets, long[] nullRows, long[] nullElements) {
        if (rows == 0 || nullRows != null || nullElements != null) {
            return -1;
        }
        int length = offsets[1] - offsets[0];
        for (int r = 1; r < rows; r++) {
            if (offsets[r + 1] - offsets[r] != length) {
                return -1;
            }
        }
        return length;
    }

    boolean isNull(int row) {
        return nullRows != null && (nullRows[row >>> 6] & (1L << row)) != 0;
    }

    /** The number of values of row {@code row} of a list column. */
    int length(int row) {
        return offsets[row + 1] - offsets[row];
    }

    boolean hasNullElement(int row) {
        if (nullElements == null) {
            return false;
        }
        for (int v = offsets[row]; v < offsets[row + 1]; v++) {
            if ((v >>> 6) < nullElements.length && (nullElements[v >>> 6] & (1L << v)) != 0) {
                return true;
            }
        }
        return false;
    }

    long getLong(int row) {
        return switch (column.kind()) {
            case INT64 -> longs[row];
            case INT32 -> ints[row];
            default -> throw new IllegalStateException(column.kind().toString());
        };
    }

    double getDouble(int row) {
        return switch (column.kind()) {
            case DOUBLE -> doubles[row];
            case FLOAT -> floats[row];
            case INT64 -> longs[row];
            case INT32 -> ints[row];
            default -> throw new IllegalStateException(column.kind().toString());
        };
    }

    byte[] getBytes(int row) {
        return Arrays.copyOfRange(bytes, offsets[row], offsets[row + 1]);
    }

    String getString(int row) {
        return new String(bytes, offsets[row], offsets[row + 1] - offsets[row], StandardCharsets.UTF_8);
    }

    /** The heap bytes this column holds, for the cache's bound. */
    long heapBytes() {
        long n = 0;
        n += longs == null ? 0 : 8L * longs.length;
        n += ints == null ? 0 : 4L * ints.length;
        n += floats == null ? 0 : 4L * floats.length;
        n += doubles == null ? 0 : 8L * doubles.length;
        n += bytes == null ? 0 : bytes.length;
        n += offsets == null ? 0 : 4L * offsets.length;
        return n;
    }
}
