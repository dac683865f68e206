package dev.stoker.formats.contract;

import dev.stoker.contract.ContractCoverage;
import dev.stoker.formats.npy.NpyDataset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the formats module runs its contracts; a new one fails this until it does. */
class FormatsContractCoverageTest {
    private static final String F = "dev.stoker.formats.";

    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(NpyDataset.class, Map.ofEntries(
                Map.entry(F + "folder.ImageFolderDataset", List.of(F + "folder.ImageFolderContractTest")),
                Map.entry(F + "folder.ImageFolderFiles", List.of(F + "folder.ImageFolderFilesContractTest")),
                Map.entry(F + "jsonl.JsonlDataset", List.of(F + "jsonl.JsonlContractTest")),
                Map.entry(F + "jsonl.JsonlStream", List.of(F + "jsonl.JsonlStreamContractTest")),
                Map.entry(F + "megatron.MegatronDataset", List.of(F + "megatron.MegatronContractTest")),
                Map.entry(F + "megatron.PaddedSequences", List.of(F + "megatron.PaddedSequencesTest$Contract",
                        F + "megatron.PaddedSequencesTest$Fill")),
                Map.entry(F + "npy.NpyDataset", List.of(F + "npy.NpyDatasetContractTest",
                        F + "npy.NpyDatasetFillContractTest")),
                Map.entry(F + "tar.IndexedTarDataset", List.of(F + "tar.IndexedTarDatasetContractTest")),
                Map.entry(F + "tar.RemoteTarDataset", List.of(F + "tar.RemoteTarDatasetContractTest")),
                Map.entry(F + "tar.TarShardDataset", List.of(F + "tar.TarShardDatasetContractTest")),
                Map.entry(F + "tar.TarTensorStream", List.of(F + "tar.TarTensorStreamContractTest$Stream",
                        F + "tar.TarTensorStreamContractTest$Fill")),
                Map.entry(F + "tokens.TokenWindowDataset", List.of(F + "tokens.TokenWindowContractTest",
                        F + "tokens.TokenWindowFillContractTest"))));
    }
}
