package dev.stoker.formats.npy;

import dev.stoker.formats.contract.MapDatasetContract;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

class NpyDatasetContractTest extends MapDatasetContract<Tensor> {

    @Override
    protected Opened<Tensor> open() throws Exception {
        NpyFile ten = NpyFile.open(NpyFixturesTest.folder().resolve("one_d_u2.npy"));
        return new Opened<>(ten.rows(), ten);
    }

    @Override
    protected Object content(Tensor sample) {
        return List.of(sample.dtype(), sample.shape(), Arrays.toString(sample.segment().toArray(ValueLayout.JAVA_BYTE)));
    }
}
