package dev.stoker.formats.hdf5;

import dev.stoker.formats.contract.MapDatasetContract;
import dev.stoker.tensor.Tensor;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** The map-style reader contract, over a contiguous (memory-mapped) file that h5py wrote. */
class Hdf5DatasetContractTest extends MapDatasetContract<Map<String, Tensor>> {

    @Override
    protected Opened<Map<String, Tensor>> open() {
        Hdf5Dataset ds = Hdf5Dataset.open(Hdf5DatasetTest.fixture("contiguous.h5"), "data", "labels");
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(Map<String, Tensor> sample) {
        Map<String, String> out = new TreeMap<>();
        sample.forEach((name, t) -> out.put(name, t.dtype() + " " + t.shape() + " " + Arrays.toString(t.toByteArray())));
        return out;
    }
}
