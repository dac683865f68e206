package dev.stoker.formats.parquet;

import dev.stoker.formats.contract.MapDatasetContract;

/**
 * The map-style reader contract, over a snappy, dictionary-encoded file that pyarrow wrote. Each worker caches
 * all 8 row groups: the contract reads at random, which with a small cache decodes a row group per sample.
 */
class ParquetDatasetContractTest extends MapDatasetContract<ParquetRow> {

    @Override
    protected Opened<ParquetRow> open() {
        ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("snappy_dict.parquet")).cacheRowGroups(8).build();
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(ParquetRow sample) {
        return sample.toString();
    }
}
