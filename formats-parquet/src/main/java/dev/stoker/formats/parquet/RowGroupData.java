package dev.stoker.formats.parquet;

/**
 * One row group, decoded: the projected columns of its rows, in the dataset's column order.
 * Immutable; shared by the rows ({@link ParquetRow}) that point into it.
 *
 * @param group   the dataset-wide number of the row group
 * @param columns one per projected column
 */
record RowGroupData(int group, DecodedColumn[] columns) {

    long heapBytes() {
        long n = 64;
        for (DecodedColumn c : columns) {
            n += c.heapBytes();
        }
        return n;
    }
}
