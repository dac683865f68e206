package dev.stoker.formats.parquet;

import dev.stoker.formats.contract.MapDatasetContract;

/** The map-style reader contract, over a snappy, dictionary-encoded file that pyarrow wrote. */
class ParquetDatasetContractTest extends MapDatasetContract<ParquetRow> {

    @Override
    protected Opened<ParquetRow> open() {
        ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("snappy_dict.parquet")).cacheRowGroups(1).build();
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(ParquetRow sample) {
        return sample.toString();
    }
}
