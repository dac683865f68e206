package dev.stoker.contract;

import dev.stoker.data.TensorDataset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the core module runs its contracts; a new one fails this until it does. */
class CoreContractCoverageTest {
    private static final String T = "dev.stoker.contract.CoreDatasetContractsTest$";
    private static final String X = "dev.stoker.text.TextContractsTest$";

    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(TensorDataset.class, Map.ofEntries(
                Map.entry("dev.stoker.data.TensorDataset", List.of(T + "TensorMap", T + "TensorMapFill", T + "TensorListFill")),
                Map.entry("dev.stoker.data.ConcatDataset", List.of(T + "Concat")),
                Map.entry("dev.stoker.data.FillableConcatDataset", List.of(T + "ConcatOfFillables", T + "ConcatFill")),
                Map.entry("dev.stoker.data.SubsetDataset", List.of(T + "Subset")),
                Map.entry("dev.stoker.data.FillableSubsetDataset", List.of(T + "SubsetOfFillable", T + "SubsetFill")),
                Map.entry("dev.stoker.data.SyntheticDataset", List.of(T + "Synthetic", T + "SyntheticFill")),
                Map.entry("dev.stoker.data.MappedDataset", List.of(T + "Mapped")),
                Map.entry("dev.stoker.packing.PackedDataset", List.of(T + "Packed")),
                Map.entry("dev.stoker.packing.PackedFill", List.of(T + "PackedFilled", T + "PackedFill")),
                Map.entry("dev.stoker.text.DocumentWindowDataset", List.of(X + "Windows", X + "WindowsFill")),
                Map.entry("dev.stoker.text.DocumentWindowStream", List.of(X + "WindowStream", X + "WindowStreamFill")),
                Map.entry("dev.stoker.text.TokenizedDataset", List.of(X + "Tokenized")),
                Map.entry("dev.stoker.text.TokenizedStream", List.of(X + "TokenizedTexts")),
                Map.entry("dev.stoker.data.MixedStreamingDataset", List.of(T + "Mixed")),
                Map.entry("dev.stoker.data.FillableMixedStreamingDataset", List.of(T + "Mixed", T + "MixedFill")),
                Map.entry("dev.stoker.loader.engine.ConcurrentFetchDataset", List.of(ContractCoverage.EXEMPT
                        + "the loader's own view of a dataset for I/O concurrency, never handed out; every suite's"
                        + " loader runs reach it")),
                Map.entry("dev.stoker.loader.engine.ConcurrentFillDataset", List.of(ContractCoverage.EXEMPT
                        + "the fill side of ConcurrentFetchDataset"))));
    }
}
