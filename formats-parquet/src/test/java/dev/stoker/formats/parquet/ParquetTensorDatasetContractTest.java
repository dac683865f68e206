package dev.stoker.formats.parquet;

import dev.stoker.formats.contract.MapDatasetContract;
import dev.stoker.tensor.Tensor;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** The map-style reader contract for the fill path's dataset, over a zstd file that pyarrow wrote (all 8 row groups cached, as above). */
class ParquetTensorDatasetContractTest extends MapDatasetContract<Map<String, Tensor>> {

    @Override
    protected Opened<Map<String, Tensor>> open() {
        ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("zstd_plain.parquet")).cacheRowGroups(8).build();
        return new Opened<>(ds.tensors(FillColumn.scalar("id"), FillColumn.scalar("f"), FillColumn.list("window", 4)),
                ds);
    }

    @Override
    protected Object content(Map<String, Tensor> sample) {
        Map<String, String> out = new TreeMap<>();
        sample.forEach((name, t) -> out.put(name, t.dtype() + " " + t.shape() + " " + Arrays.toString(t.toByteArray())));
        return out;
    }
}
