package dev.stoker.formats.parquet;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a {@link ParquetDataset}: typed getters by column name over the decoded row group it
 * came from, copying nothing until asked. Getters of a null value throw, naming the file, row
 * group, column and row; ask {@link #isNull} first for a nullable column.
 *
 * <pre>{@code
 * ParquetRow row = dataset.get(12);
 * String text = row.getString("text");
 * int[] ids = row.getIntList("input_ids");
 * long label = row.getLong("label");
 * }</pre>
 *
 * <p>Two rows are equal when they hold equal values in the same columns.
 */
public final class ParquetRow {
    private final ParquetDataset dataset;
    private final RowGroupData group;
    /** The row within the row group (for its index and errors). */
    private final int groupRow;
    /** The decoded chunk of the group that holds the row, and the row within it. */
    private final DecodedColumn[] chunk;
    private final int row;

    ParquetRow(ParquetDataset dataset, RowGroupData group, int row) {
        this.dataset = dataset;
        this.group = group;
        this.groupRow = row;
        int c = group.chunkOf(row);
        this.chunk = group.chunks()[c];
        this.row = row - group.starts()[c];
    }

    RowGroupData group() {
        return group;
    }

    int row() {
        return groupRow;
    }

    /** The column at {@code column} of the chunk holding this row, and {@link #chunkRow} in it. */
    DecodedColumn chunkColumn(int column) {
        return chunk[column];
    }

    int chunkRow() {
        return row;
    }

    /** The columns of the row, in the dataset's order. */
    public java.util.List<ParquetColumn> columns() {
        return dataset.columns();
    }

    /** Whether the value of {@code column} is null. */
    public boolean isNull(String column) {
        return col(column).isNull(row);
    }

    /** An integer column (int32 or int64) as a long. */
    public long getLong(String column) {
        DecodedColumn c = present(column, ColumnKind.INT64, ColumnKind.INT32);
        return c.getLong(row);
    }

    /** A numeric column (float, double or integer) as a double. */
    public double getDouble(String column) {
        DecodedColumn c = present(column, ColumnKind.DOUBLE, ColumnKind.FLOAT, ColumnKind.INT64, ColumnKind.INT32);
        return c.getDouble(row);
    }

    /** A string column, decoded from UTF-8. */
    public String getString(String column) {
        return present(column, ColumnKind.STRING).getString(row);
    }

    /** A string or binary column's bytes, copied. */
    public byte[] getBytes(String column) {
        return present(column, ColumnKind.STRING, ColumnKind.BINARY).getBytes(row);
    }

    /**
     * A string or binary column's bytes as a read-only view into the decoded row group, copying
     * nothing: for a tokenizer or parser that reads bytes. It keeps the whole row group reachable
     * while it is held.
     */
    public MemorySegment getBytesView(String column) {
        DecodedColumn c = present(column, ColumnKind.STRING, ColumnKind.BINARY);
        return MemorySegment.ofArray(c.bytes).asSlice(c.offsets[row], c.offsets[row + 1] - c.offsets[row])
                .asReadOnly();
    }

    /** A list of int32 (or of int64 that fit an int) as an array, copied. */
    public int[] getIntList(String column) {
        DecodedColumn c = present(column, ColumnKind.INT32_LIST, ColumnKind.INT64_LIST);
        checkElements(c);
        int from = c.offsets[row];
        int to = c.offsets[row + 1];
        if (c.ints != null) {
            return Arrays.copyOfRange(c.ints, from, to);
        }
        int[] out = new int[to - from];
        for (int v = from; v < to; v++) {
            long x = c.longs[v];
            if (x != (int) x) {
                throw bad(c, "value " + x + " does not fit an int; use getLongList");
            }
            out[v - from] = (int) x;
        }
        return out;
    }

    /** A list of integers as longs, copied. */
    public long[] getLongList(String column) {
        DecodedColumn c = present(column, ColumnKind.INT32_LIST, ColumnKind.INT64_LIST);
        checkElements(c);
        int from = c.offsets[row];
        int to = c.offsets[row + 1];
        if (c.longs != null) {
            return Arrays.copyOfRange(c.longs, from, to);
        }
        long[] out = new long[to - from];
        for (int v = from; v < to; v++) {
            out[v - from] = c.ints[v];
        }
        return out;
    }

    /** A list of floats, copied. */
    public float[] getFloatList(String column) {
        DecodedColumn c = present(column, ColumnKind.FLOAT_LIST);
        checkElements(c);
        return Arrays.copyOfRange(c.floats, c.offsets[row], c.offsets[row + 1]);
    }

    /** A list of doubles, copied. */
    public double[] getDoubleList(String column) {
        DecodedColumn c = present(column, ColumnKind.DOUBLE_LIST);
        checkElements(c);
        return Arrays.copyOfRange(c.doubles, c.offsets[row], c.offsets[row + 1]);
    }

    /** The dataset-wide index of this row. */
    public long index() {
        return dataset.source().groupStart(group.group()) + groupRow;
    }

    /** The row as a map from column name to a boxed value, an array, or {@code null}: for printing and tests. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (DecodedColumn c : chunk) {
            String n = c.column.name();
            if (c.isNull(row)) {
                out.put(n, null);
                continue;
            }
            out.put(n, switch (c.column.kind()) {
                case INT32, INT64 -> getLong(n);
                case FLOAT, DOUBLE -> getDouble(n);
                case STRING -> getString(n);
                case BINARY -> getBytes(n);
                case INT32_LIST, INT64_LIST -> c.hasNullElement(row) ? "list with nulls" : getLongList(n);
                case FLOAT_LIST -> c.hasNullElement(row) ? "list with nulls" : getFloatList(n);
                case DOUBLE_LIST -> c.hasNullElement(row) ? "list with nulls" : getDoubleList(n);
            });
        }
        return out;
    }

    private DecodedColumn col(String column) {
        return chunk[dataset.source().column(column)];
    }

    private DecodedColumn present(String column, ColumnKind... kinds) {
        DecodedColumn c = col(column);
        if (!Arrays.asList(kinds).contains(c.column.kind())) {
            throw new IllegalArgumentException("column '" + column + "' is " + c.column.kind() + ", not "
                    + Arrays.toString(kinds));
        }
        if (c.isNull(row)) {
            throw bad(c, "the value is null");
        }
        return c;
    }

    private void checkElements(DecodedColumn c) {
        if (c.hasNullElement(row)) {
            throw bad(c, "the list holds a null element");
        }
    }

    private String where(DecodedColumn c) {
        return dataset.source().where(group.group(), index(), c.column.name());
    }

    private ParquetFormatException bad(DecodedColumn c, String what) {
        return dataset.source().badValue(group.group(), index(), c.column.name(), what);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParquetRow r && Arrays.deepEquals(values(), r.values());
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values());
    }

    private Object[] values() {
        return toMap().entrySet().stream().map(e -> new Object[] {e.getKey(), e.getValue()}).toArray();
    }

    @Override
    public String toString() {
        Map<String, Object> m = toMap();
        m.replaceAll((k, v) -> v instanceof long[] a ? Arrays.toString(a) : v instanceof float[] a ? Arrays.toString(a)
                : v instanceof double[] a ? Arrays.toString(a) : v instanceof byte[] a ? Arrays.toString(a) : v);
        return "ParquetRow" + m;
    }
}
