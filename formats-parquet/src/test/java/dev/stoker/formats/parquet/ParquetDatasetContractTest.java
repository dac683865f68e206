package dev.stoker.formats.parquet;

import dev.stoker.formats.contract.MappedDatasetContract;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The map-style reader contract, over a snappy, dictionary-encoded file that pyarrow wrote. Each worker caches
 * all 8 row groups: the contract reads at random, which with a small cache decodes a row group per sample.
 */
class ParquetDatasetContractTest extends MappedDatasetContract<ParquetRow> {

    @TempDir
    Path dir;
    private Path file;

    @Override
    protected Opened<ParquetRow> open() throws Exception {
        file = Files.copy(ParquetFixtures.file("snappy_dict.parquet"), dir.resolve("snappy_dict.parquet"));
        ParquetDataset ds = ParquetDataset.builder(file).cacheRowGroups(8).build();
        return new Opened<>(ds, ds);
    }

    /** The contract cuts the file short mid-epoch: a copy in the test's folder. */
    @Override
    protected Path mappedFile() {
        return file;
    }

    @Override
    protected Object content(ParquetRow sample) {
        return sample.toString();
    }
}
