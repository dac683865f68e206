package dev.stoker.formats.parquet;

import dev.stoker.contract.ContractCoverage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the Parquet module runs its contracts; a new one fails this until it does. */
class ParquetContractCoverageTest {
    private static final String P = "dev.stoker.formats.parquet.";

    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(ParquetDataset.class, Map.of(
                P + "ParquetDataset", List.of(P + "ParquetDatasetContractTest"),
                P + "ParquetTensorDataset", List.of(P + "ParquetTensorDatasetContractTest",
                        P + "ParquetTensorDatasetFillContractTest"),
                P + "ParquetStream", List.of(P + "ParquetStreamContractsTest$Rows"),
                P + "ParquetTensorStream", List.of(P + "ParquetStreamContractsTest$TensorRows", P + "ParquetStreamContractsTest$Fill")));
    }
}
