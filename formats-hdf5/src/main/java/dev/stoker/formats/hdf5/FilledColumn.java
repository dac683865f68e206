package dev.stoker.formats.hdf5;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;

/**
 * A contiguous array never written: HDF5 allocates its bytes at the first write (h5py's default),
 * so until then its layout has no address and every element reads as the fill value, as h5py
 * reads it.
 */
record FilledColumn(SampleLayout.Field field, long rows, FillValue fill) implements Hdf5Column {

    @Override
    public boolean mapped() {
        return false;
    }

    @Override
    public void readRow(long row, Tensor dst) {
        fill.write(dst.segment(), 0, field.shape().elements());
    }
}
