package dev.stoker.formats.parquet;

import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.Validity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns what Hardwood decoded for one row group into {@link DecodedColumn}s, one per column for
 * each batch Hardwood hands out, checking every count against the row group's own before it is
 * trusted: Hardwood's arrays are row-aligned for flat columns (a null row keeps its slot) and
 * value-aligned, with per-row offsets, for lists.
 *
 * <p>A row group is read in batches of a few thousand rows, all projected columns from one
 * reader: Hardwood then decodes the next batch while this one is checked, and its arrays stay small
 * enough to stay in cache. (Asked for the whole group in one batch, on one reader per column,
 * Hardwood sized a list column's values and both its level arrays at twice the value count, about
 * seven times the values' own size, and overlapped nothing.)
 *
 * <p>Each batch's arrays are kept as they are, not copied: Hardwood allocates them afresh for every
 * batch and never reuses one it handed out ({@code ColumnReader}'s "array ownership" contract,
 * since 1.0.0.Final). Copying them into arrays of the whole row group cost one more pass over
 * every decoded byte, a tenth of the fill path's time.
 */
final class RowGroupDecoder {
    /** Rows per batch Hardwood decodes (a row group of fewer is one batch). */
    static final int BATCH_ROWS = 8192;

    private RowGroupDecoder() {
    }

    /**
     * One batch of {@code reader}'s column as a {@link DecodedColumn} of {@code records} rows, its
     * offsets and lengths checked; {@code firstRow} (the batch's first row in the row group) only
     * names rows in errors.
     */
    static DecodedColumn chunk(ParquetColumn c, ColumnReader reader, int records, int firstRow) {
        if (c.kind().isList()) {
            int[] offsets = reader.getLayerOffsets(0);
            int values = reader.getValueCount();
            if (offsets.length < records + 1 || values < 0 || offsets[0] != 0 || offsets[records] != values) {
                throw new IllegalStateException("list offsets of " + offsets.length + " entries for " + records
                        + " rows and " + values + " values");
            }
            for (int r = 0; r < records; r++) {
                if (offsets[r + 1] < offsets[r]) {
                    throw new IllegalStateException("list offsets out of order at row " + (firstRow + r));
                }
            }
            long[] nullRows = nulls(reader.getLayerValidity(0), records);
            long[] nullElements = nulls(reader.getLeafValidity(), values);
            Object array = numbers(c, reader);
            checkLength(array, values);
            return new DecodedColumn(c, records, array, null, offsets, nullRows, nullElements);
        }
        if (c.kind() == ColumnKind.STRING || c.kind() == ColumnKind.BINARY) {
            int[] offsets = reader.getBinaryOffsets();
            byte[] bytes = reader.getBinaryValues();
            if (offsets.length < records + 1) {
                throw new IllegalStateException(offsets.length + " binary offsets for " + records + " rows");
            }
            int end = offsets[records];
            if (offsets[0] != 0 || end < 0 || end > bytes.length) {
                throw new IllegalStateException("binary offsets beyond the " + bytes.length + " decoded bytes");
            }
            for (int r = 0; r < records; r++) {
                if (offsets[r + 1] < offsets[r]) {
                    throw new IllegalStateException("binary offsets out of order at row " + (firstRow + r));
                }
            }
            // Hardwood sizes the byte buffer by capacity: a mostly empty one is trimmed, as the cache keeps it
            return new DecodedColumn(c, records, null, bytes.length > 2L * end + 4096 ? Arrays.copyOf(bytes, end)
                    : bytes, offsets, nulls(reader.getLeafValidity(), records), null);
        }
        Object array = numbers(c, reader);
        checkLength(array, records);
        return new DecodedColumn(c, records, array, null, null, nulls(reader.getLeafValidity(), records), null);
    }

    private static Object numbers(ParquetColumn c, ColumnReader reader) {
        return switch (c.kind()) {
            case INT32, INT32_LIST -> reader.getInts();
            case INT64, INT64_LIST -> reader.getLongs();
            case FLOAT, FLOAT_LIST -> reader.getFloats();
            case DOUBLE, DOUBLE_LIST -> reader.getDoubles();
            default -> throw new IllegalStateException(c.kind().toString());
        };
    }

    private static void checkLength(Object array, int count) {
        int length = java.lang.reflect.Array.getLength(array);
        if (count > length) {
            throw new IllegalStateException(count + " values announced, " + length + " decoded");
        }
    }

    /** Stoker's null bitmap (a set bit per null) of {@code count} items, or null when none is null. */
    private static long[] nulls(Validity valid, int count) {
        if (!valid.hasNulls()) {
            return null;
        }
        long[] out = null;
        for (int i = 0; i < count; i++) {
            if (valid.isNull(i)) {
                if (out == null) {
                    out = new long[(count + 63) >>> 6];
                }
                out[i >>> 6] |= 1L << i;
            }
        }
        return out;
    }

    /**
     * Reads every batch of {@code readers}, one reader of all of {@code columns}, into a row group
     * of {@code rows} rows (the footer's claim, which the batches must add up to exactly).
     */
    static RowGroupData readAll(int group, ColumnReaders readers, ParquetColumn[] columns, int rows) {
        ColumnReader[] each = new ColumnReader[columns.length];
        for (int c = 0; c < columns.length; c++) {
            each[c] = readers.getColumnReader(columns[c].path());
        }
        List<DecodedColumn[]> chunks = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        int done = 0;
        while (readers.nextBatch()) {
            int records = readers.getRecordCount();
            if (records <= 0) {
                continue;
            }
            if (done > rows - records) {
                throw new IllegalStateException("more rows than the row group's " + rows);
            }
            DecodedColumn[] chunk = new DecodedColumn[columns.length];
            for (int c = 0; c < columns.length; c++) {
                try {
                    chunk[c] = chunk(columns[c], each[c], records, done);
                } catch (IllegalStateException e) {
                    throw new IllegalStateException("column '" + columns[c].name() + "': " + e.getMessage(), e);
                }
            }
            chunks.add(chunk);
            starts.add(done);
            done += records;
        }
        if (done != rows) {
            throw new IllegalStateException("decoded " + done + " rows where the row group says " + rows);
        }
        int[] at = new int[starts.size() + 1];
        for (int i = 0; i < starts.size(); i++) {
            at[i] = starts.get(i);
        }
        at[starts.size()] = rows;
        return new RowGroupData(group, at, chunks.toArray(DecodedColumn[][]::new));
    }
}
