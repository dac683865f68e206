package dev.stoker.formats.parquet;

import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.Validity;
import java.util.Arrays;

/**
 * Copies what Hardwood decoded for one row group into {@link DecodedColumn}s, checking every count
 * against the row group's own before it is trusted: Hardwood's arrays are row-aligned for flat
 * columns (a null row keeps its slot) and value-aligned, with per-row offsets, for lists.
 */
final class RowGroupDecoder {
    private RowGroupDecoder() {
    }

    /** Appends one decoded batch of {@code reader}'s column to {@code into}. */
    static void append(Builder into, ColumnReader reader, int records) {
        ParquetColumn c = into.column;
        boolean whole = into.rows == 0 && records == into.expectedRows;
        if (c.kind().isList()) {
            int[] layer = reader.getLayerOffsets(0);
            int values = reader.getValueCount();
            if (layer.length < records || values < 0) {
                throw new IllegalStateException("list offsets of " + layer.length + " entries for " + records + " rows");
            }
            int first = into.values;
            for (int r = 0; r < records; r++) {
                int start = layer[r];
                int end = r + 1 < records ? layer[r + 1] : values;
                if (start < 0 || end < start || end > values) {
                    throw new IllegalStateException("list offsets out of order at row " + (into.rows + r));
                }
                into.offset(first + end);
            }
            Validity rows = reader.getLayerValidity(0);
            for (int r = 0; r < records; r++) {
                into.nullRow(rows.isNull(r));
            }
            Validity leaf = reader.getLeafValidity();
            if (leaf.hasNulls()) {
                for (int v = 0; v < values; v++) {
                    if (leaf.isNull(v)) {
                        into.nullElement(first + v);
                    }
                }
            }
            into.values(reader, values, whole);
        } else if (c.kind() == ColumnKind.STRING || c.kind() == ColumnKind.BINARY) {
            int[] offsets = reader.getBinaryOffsets();
            byte[] bytes = reader.getBinaryValues();
            if (offsets.length < records + 1) {
                throw new IllegalStateException(offsets.length + " binary offsets for " + records + " rows");
            }
            int end = offsets[records];
            if (offsets[0] != 0 || end < 0 || end > bytes.length) {
                throw new IllegalStateException("binary offsets beyond the " + bytes.length + " decoded bytes");
            }
            Validity valid = reader.getLeafValidity();
            for (int r = 0; r < records; r++) {
                if (offsets[r + 1] < offsets[r]) {
                    throw new IllegalStateException("binary offsets out of order at row " + (into.rows + r));
                }
                into.offset(into.values + offsets[r + 1]);
                into.nullRow(valid.isNull(r));
            }
            into.bytes(bytes, end, whole);
        } else {
            Validity valid = reader.getLeafValidity();
            for (int r = 0; r < records; r++) {
                into.nullRow(valid.isNull(r));
            }
            into.values(reader, records, whole);
        }
        into.rows += records;
    }

    /** Accumulates the batches of one column of one row group (one batch in the common case). */
    static final class Builder {
        final ParquetColumn column;
        int rows;
        int values;
        private Object array;
        private byte[] bytes = new byte[0];
        private int[] offsets;
        private int offsetCount;
        private long[] nullRows;
        private long[] nullElements;
        private final int expectedRows;
        private int nullFlags;

        Builder(ParquetColumn column, int expectedRows) {
            this.column = column;
            this.expectedRows = expectedRows;
            boolean hasOffsets = column.kind().isList() || !column.kind().isNumeric();
            if (hasOffsets) {
                offsets = new int[expectedRows + 1];
                offsetCount = 1;
            }
        }

        void offset(int end) {
            if (offsetCount >= offsets.length) {
                throw new IllegalStateException("more rows than the row group's " + expectedRows);
            }
            offsets[offsetCount++] = end;
        }

        void nullRow(boolean isNull) {
            int at = nullFlags++;   // the rows' flags come in order, one per row
            if (isNull) {
                if (nullRows == null) {
                    nullRows = new long[(expectedRows + 63) >>> 6];
                }
                if (at >= expectedRows) {
                    throw new IllegalStateException("more rows than the row group's " + expectedRows);
                }
                nullRows[at >>> 6] |= 1L << at;
            }
        }

        void nullElement(int v) {
            if (nullElements == null || (v >>> 6) >= nullElements.length) {
                nullElements = Arrays.copyOf(nullElements == null ? new long[0] : nullElements, Math.max(
                        (v >>> 6) + 1, nullElements == null ? 1 : 2 * nullElements.length));
            }
            nullElements[v >>> 6] |= 1L << v;
        }

        void bytes(byte[] batch, int length, boolean whole) {
            if (length > batch.length) {
                throw new IllegalStateException(length + " bytes announced, " + batch.length + " decoded");
            }
            // a row group decoded in one batch keeps Hardwood's array: its reader is closed after this
            // batch, so nothing writes into it again (a later batch could reuse it: copy then)
            bytes = whole ? batch : concat(bytes, values, batch, length);
            values += length;
        }

        /**
         * Appends {@code count} decoded numbers. {@code whole}: this batch is the row group's only
         * one, so Hardwood's array is kept as it is instead of copied (see {@link #bytes}).
         */
        void values(ColumnReader reader, int count, boolean whole) {
            Object add = switch (column.kind()) {
                case INT32, INT32_LIST -> reader.getInts();
                case INT64, INT64_LIST -> reader.getLongs();
                case FLOAT, FLOAT_LIST -> reader.getFloats();
                case DOUBLE, DOUBLE_LIST -> reader.getDoubles();
                default -> throw new IllegalStateException(column.kind().toString());
            };
            int length = java.lang.reflect.Array.getLength(add);
            if (count > length) {
                throw new IllegalStateException(count + " values announced, " + length + " decoded");
            }
            array = whole ? add : concat(array, values, add, count);
            values += count;
        }

        DecodedColumn build() {
            if (rows != expectedRows || (offsets != null && offsetCount != rows + 1)) {
                throw new IllegalStateException("decoded " + rows + " rows where the row group says " + expectedRows);
            }
            if (array == null && column.kind().isNumeric()) {
                array = switch (column.kind().dtype()) {
                    case I32 -> new int[0];
                    case F32 -> new float[0];
                    case F64 -> new double[0];
                    default -> new long[0];
                };
            }
            return new DecodedColumn(column, rows, array, offsets == null ? null : bytes, offsets, nullRows,
                    nullElements);
        }

        /** {@code have[0, used)} followed by {@code add[0, count)}, in a fresh array (Hardwood reuses its own). */
        private static <A> A concat(Object have, int used, A add, int count) {
            int length = java.lang.reflect.Array.getLength(add);
            if (count > length) {
                throw new IllegalStateException(count + " values announced, " + length + " decoded");
            }
            @SuppressWarnings("unchecked")
            A out = (A) java.lang.reflect.Array.newInstance(add.getClass().getComponentType(), Math.addExact(used, count));
            if (have != null) {
                System.arraycopy(have, 0, out, 0, used);
            }
            System.arraycopy(add, 0, out, used, count);
            return out;
        }
    }

    /** Reads every batch of {@code readers}, a reader of {@code builder}'s column alone, into one {@link DecodedColumn}. */
    static DecodedColumn readAll(ColumnReaders readers, Builder builder) {
        while (readers.nextBatch()) {
            append(builder, readers.getColumnReader(builder.column.path()), readers.getRecordCount());
        }
        return builder.build();
    }
}
