package dev.stoker.formats.hdf5;

import dev.stoker.contract.ContractCoverage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the HDF5 module runs its contracts; a new one fails this until it does. */
class Hdf5ContractCoverageTest {
    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(Hdf5Dataset.class, Map.of("dev.stoker.formats.hdf5.Hdf5Dataset",
                List.of("dev.stoker.formats.hdf5.Hdf5DatasetContractTest", "dev.stoker.formats.hdf5.Hdf5DatasetFillContractTest")));
    }
}
