package dev.stoker.formats.hdf5;

import dev.stoker.formats.contract.MappedDatasetContract;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;

/** The map-style reader contract, over a contiguous (memory-mapped) file that h5py wrote. */
class Hdf5DatasetContractTest extends MappedDatasetContract<Map<String, Tensor>> {

    @TempDir
    Path dir;
    private Path file;

    @Override
    protected Path mappedFile() {
        return file;
    }

    @Override
    protected Opened<Map<String, Tensor>> open() throws IOException {
        file = Files.copy(Hdf5DatasetTest.fixture("contiguous.h5"), dir.resolve("contiguous.h5"));
        Hdf5Dataset ds = Hdf5Dataset.open(file, "data", "labels");
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(Map<String, Tensor> sample) {
        Map<String, String> out = new TreeMap<>();
        sample.forEach((name, t) -> out.put(name, t.dtype() + " " + t.shape() + " " + Arrays.toString(t.toByteArray())));
        return out;
    }
}
