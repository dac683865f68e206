package dev.stoker.formats.parquet;

import dev.stoker.formats.contract.MappedDatasetContract;
import dev.stoker.tensor.Tensor;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** The map-style reader contract for the fill path's dataset, over a zstd file that pyarrow wrote (all 8 row groups cached, as above). */
class ParquetTensorDatasetContractTest extends MappedDatasetContract<Map<String, Tensor>> {

    @TempDir
    Path dir;
    private Path file;

    @Override
    protected Opened<Map<String, Tensor>> open() throws Exception {
        file = Files.copy(ParquetFixtures.file("zstd_plain.parquet"), dir.resolve("zstd_plain.parquet"));
        ParquetDataset ds = ParquetDataset.builder(file).cacheRowGroups(8).build();
        return new Opened<>(ds.tensors(FillColumn.scalar("id"), FillColumn.scalar("f"), FillColumn.list("window", 4)),
                ds);
    }

    /** The contract cuts the file short mid-epoch, also under the loader's fill path: a copy in the test's folder. */
    @Override
    protected Path mappedFile() {
        return file;
    }

    @Override
    protected Object content(Map<String, Tensor> sample) {
        Map<String, String> out = new TreeMap<>();
        sample.forEach((name, t) -> out.put(name, t.dtype() + " " + t.shape() + " " + Arrays.toString(t.toByteArray())));
        return out;
    }
}
