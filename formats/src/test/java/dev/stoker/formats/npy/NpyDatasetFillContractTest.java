package dev.stoker.formats.npy;

import dev.stoker.contract.FillableDatasetContract;
import dev.stoker.tensor.Tensor;

/** The rows of .npy files written by NumPy, filled into the batch as collate would make them. */
class NpyDatasetFillContractTest extends FillableDatasetContract<Tensor> {
    @Override
    protected Opened<Tensor> open() throws Exception {
        NpyFile file = NpyFile.open(NpyFixturesTest.folder().resolve("one_d_u2.npy"));
        return new Opened<>(file.rows(), file);
    }
}
