package dev.stoker.formats.parquet;

import dev.stoker.contract.FillableDatasetContract;
import dev.stoker.tensor.Tensor;
import java.util.Map;

/** Fixed-width columns of a pyarrow-written file, filled into the batch as collate would make them. */
class ParquetTensorDatasetFillContractTest extends FillableDatasetContract<Map<String, Tensor>> {
    @Override
    protected Opened<Map<String, Tensor>> open() throws Exception {
        ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("zstd_plain.parquet")).cacheRowGroups(8).build();
        return new Opened<>(ds.tensors(FillColumn.scalar("id"), FillColumn.scalar("f"), FillColumn.list("window", 4)),
                ds);
    }
}
