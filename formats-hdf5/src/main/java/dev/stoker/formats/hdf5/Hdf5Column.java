package dev.stoker.formats.hdf5;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;

/**
 * One HDF5 dataset read row by row along its first axis: row {@code i} is the sub-array
 * {@code dataset[i]}, written into a tensor of the field's dtype and shape.
 */
sealed interface Hdf5Column permits MappedColumn, JhdfColumn, ChunkedColumn, FilledColumn {

    /** The field this column fills: the dataset's path, element type and shape of one row. */
    SampleLayout.Field field();

    /** Rows: the first dimension. */
    long rows();

    /** Whether rows are read in place from the memory map (true) or decoded / read by jhdf (false). */
    boolean mapped();

    /** Writes row {@code row} into {@code dst} (the field's dtype and shape), every element. */
    void readRow(long row, Tensor dst);
}
