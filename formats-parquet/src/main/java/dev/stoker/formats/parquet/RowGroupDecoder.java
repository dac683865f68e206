package dev.stoker.formats.parquet;

import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.Validity;
import java.util.Arrays;

/**
 * Copies what Hardwood decoded for one row group into {@link DecodedColumn}s, checking every count
 * against the row group's own before it is trusted: Hardwood's arrays are row-aligned for flat
 * columns (a null row keeps its slot) and value-aligned, with per-row offsets, for lists.
 *
 * <p>A row group is read in batches of a few thousand rows, all projected columns from one
 * reader: Hardwood then decodes the next batch while this one is copied, and its arrays stay small
 * enough to stay in cache. (Asked for the whole group in one batch, on one reader per column,
 * Hardwood sized a list column's values and both its level arrays at twice the value count, about
 * seven times the values' own size, and overlapped nothing.) Each batch is copied into arrays sized
 * once, from the value counts the row group's footer claims (checked against the decode budget
 * before the read starts).
 */
final class RowGroupDecoder {
    /** Rows per batch Hardwood decodes (a row group of fewer is one batch). */
    static final int BATCH_ROWS = 8192;

    private RowGroupDecoder() {
    }

    /** Appends one decoded batch of {@code reader}'s column to {@code into}. */
    static void append(Builder into, ColumnReader reader, int records) {
        ParquetColumn c = into.column;
        if (into.rows > into.expectedRows - records) {
            throw new IllegalStateException("more rows than the row group's " + into.expectedRows);
        }
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
            if (rows.hasNulls()) {
                for (int r = 0; r < records; r++) {
                    into.nullRow(into.rows + r, rows.isNull(r));
                }
            }
            Validity leaf = reader.getLeafValidity();
            if (leaf.hasNulls()) {
                for (int v = 0; v < values; v++) {
                    if (leaf.isNull(v)) {
                        into.nullElement(first + v);
                    }
                }
            }
            into.values(reader, values);
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
            int base = into.values;
            for (int r = 0; r < records; r++) {
                if (offsets[r + 1] < offsets[r]) {
                    throw new IllegalStateException("binary offsets out of order at row " + (into.rows + r));
                }
                into.offset(Math.addExact(base, offsets[r + 1]));
                into.nullRow(into.rows + r, valid.isNull(r));
            }
            into.bytes(bytes, end);
        } else {
            Validity valid = reader.getLeafValidity();
            if (valid.hasNulls()) {
                for (int r = 0; r < records; r++) {
                    into.nullRow(into.rows + r, valid.isNull(r));
                }
            }
            into.values(reader, records);
        }
        into.rows += records;
    }

    /**
     * Accumulates the batches of one column of one row group, copying each into arrays that are
     * sized once (Hardwood reuses its own arrays for its next batch).
     */
    static final class Builder {
        final ParquetColumn column;
        int rows;
        int values;
        /** The numbers, sized from the row group's claim; grown only if the claim was short. */
        private Object array;
        private byte[] bytes = new byte[0];
        private int[] offsets;
        private int offsetCount;
        private long[] nullRows;
        private long[] nullElements;
        private final int expectedRows;
        private final int expectedValues;

        /**
         * @param expectedRows   the row group's rows
         * @param expectedValues the values its column chunk claims (checked against the decode
         *                       budget), which sizes the values array of a list column
         */
        Builder(ParquetColumn column, int expectedRows, long expectedValues) {
            this.column = column;
            this.expectedRows = expectedRows;
            this.expectedValues = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(0, expectedValues));
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

        /** Marks row {@code at} of the row group null if {@code isNull}. */
        void nullRow(int at, boolean isNull) {
            if (isNull) {
                if (at >= expectedRows) {
                    throw new IllegalStateException("more rows than the row group's " + expectedRows);
                }
                if (nullRows == null) {
                    nullRows = new long[(expectedRows + 63) >>> 6];
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

        void bytes(byte[] batch, int length) {
            if (length > batch.length) {
                throw new IllegalStateException(length + " bytes announced, " + batch.length + " decoded");
            }
            bytes = ensure(bytes, values, length);
            System.arraycopy(batch, 0, bytes, values, length);
            values += length;
        }

        /** Appends {@code count} decoded numbers of this batch. */
        void values(ColumnReader reader, int count) {
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
            if (array == null) {
                array = java.lang.reflect.Array.newInstance(add.getClass().getComponentType(),
                        column.kind().isList() ? Math.max(expectedValues, count) : expectedRows);
            }
            array = ensure(array, values, count);
            System.arraycopy(add, 0, array, values, count);
            values += count;
        }

        /**
         * {@code have}, or a copy twice as long, so that {@code add} more fit after {@code used}: a
         * list chunk's claimed value count counts its null slots, so it is a bound, not the count,
         * and a claim that was short only costs copies here (what was decoded is within the budget).
         */
        private static <A> A ensure(A have, int used, int add) {
            int length = java.lang.reflect.Array.getLength(have);
            int need = Math.addExact(used, add);
            if (need <= length) {
                return have;
            }
            @SuppressWarnings("unchecked")
            A out = (A) java.lang.reflect.Array.newInstance(have.getClass().getComponentType(),
                    (int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * length)));
            System.arraycopy(have, 0, out, 0, used);
            return out;
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
    }

    /**
     * Reads every batch of {@code readers}, one reader of all of {@code builders}' columns, into one
     * {@link DecodedColumn} per column.
     */
    static DecodedColumn[] readAll(ColumnReaders readers, Builder[] builders) {
        ColumnReader[] each = new ColumnReader[builders.length];
        for (int c = 0; c < builders.length; c++) {
            each[c] = readers.getColumnReader(builders[c].column.path());
        }
        while (readers.nextBatch()) {
            int records = readers.getRecordCount();
            for (int c = 0; c < builders.length; c++) {
                append(builders[c], each[c], records);
            }
        }
        DecodedColumn[] out = new DecodedColumn[builders.length];
        for (int c = 0; c < builders.length; c++) {
            out[c] = builders[c].build();
        }
        return out;
    }
}
