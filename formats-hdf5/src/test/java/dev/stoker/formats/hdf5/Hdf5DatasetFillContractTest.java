package dev.stoker.formats.hdf5;

import dev.stoker.contract.FillableDatasetContract;
import dev.stoker.tensor.Tensor;
import java.util.Map;

/** Datasets of an h5py-written file, filled into the batch as collate would make them. */
class Hdf5DatasetFillContractTest extends FillableDatasetContract<Map<String, Tensor>> {
    @Override
    protected Opened<Map<String, Tensor>> open() throws Exception {
        Hdf5Dataset ds = Hdf5Dataset.open(Hdf5DatasetTest.fixture("contiguous.h5"), "data", "labels");
        return new Opened<>(ds, ds);
    }
}
