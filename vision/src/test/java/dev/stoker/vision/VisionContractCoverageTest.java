package dev.stoker.vision;

import dev.stoker.contract.ContractCoverage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every dataset of the vision module runs its contracts; a new one fails this until it does. */
class VisionContractCoverageTest {
    private static final String V = "dev.stoker.vision.VisionContractsTest$";

    @Test
    void everyDatasetRunsItsContracts() {
        ContractCoverage.check(JpegDataset.class, Map.of(
                "dev.stoker.vision.JpegDataset", List.of(V + "Images", V + "ImagesFill"),
                "dev.stoker.vision.JpegStream", List.of(V + "Stream", V + "StreamFill")));
    }
}
