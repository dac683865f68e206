package dev.stoker.formats.mds;

import dev.stoker.contract.ContractCoverage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the MDS module runs its contracts; a new one fails this until it does. */
class MdsContractCoverageTest {
    private static final String M = "dev.stoker.formats.mds.";

    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(MdsDataset.class, Map.of(
                M + "MdsDataset", List.of(M + "MdsContractsTest$Samples"),
                M + "MdsTensorDataset", List.of(M + "MdsContractsTest$Tensors", M + "MdsContractsTest$TensorsFill"),
                M + "MdsTokenWindows", List.of(M + "MdsContractsTest$TokenWindows", M + "MdsContractsTest$TokenWindowsFill")));
    }
}
