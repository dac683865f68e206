package dev.stoker.formats.parquet;

import java.util.Arrays;

/**
 * One row group, decoded: the projected columns of its rows, in the dataset's column order, held
 * in the chunks Hardwood decoded them in (a few thousand rows each; see {@link RowGroupDecoder}).
 * Immutable; shared by the rows ({@link ParquetRow}) that point into it.
 *
 * @param group  the dataset-wide number of the row group
 * @param starts chunks + 1 entries: the first row of each chunk within the group, then its rows
 * @param chunks per chunk, one column per projected column, rows counted from the chunk's start
 */
record RowGroupData(int group, int[] starts, DecodedColumn[][] chunks) {

    /** A row group of one chunk. */
    static RowGroupData of(int group, DecodedColumn[] columns) {
        return new RowGroupData(group, new int[] {0, columns.length == 0 ? 0 : columns[0].rows},
                new DecodedColumn[][] {columns});
    }

    /** The rows of the group. */
    int rows() {
        return starts[starts.length - 1];
    }

    /** The chunk that holds row {@code row} of the group. */
    int chunkOf(int row) {
        // chunks are all of one size but the last, so the division is right but for odd decoders
        int guess = starts.length > 2 ? row / starts[1] : 0;
        if (guess < chunks.length && starts[guess] <= row && row < starts[guess + 1]) {
            return guess;
        }
        int i = Arrays.binarySearch(starts, row);
        return i >= 0 ? i : -i - 2;
    }

    long heapBytes() {
        long n = 64;
        for (DecodedColumn[] chunk : chunks) {
            for (DecodedColumn c : chunk) {
                n += c.heapBytes() + 64;
            }
        }
        return n;
    }
}
