package dev.stoker.formats.lmdb;

import dev.stoker.contract.ContractCoverage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the LMDB module runs its contracts; a new one fails this until it does. */
class LmdbContractCoverageTest {
    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(LmdbDataset.class, Map.of("dev.stoker.formats.lmdb.LmdbDataset",
                List.of("dev.stoker.formats.lmdb.LmdbDatasetContractTest", "dev.stoker.formats.lmdb.LmdbWriterContractTest")));
    }
}
