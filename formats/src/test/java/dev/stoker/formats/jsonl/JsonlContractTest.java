package dev.stoker.formats.jsonl;

import dev.stoker.formats.contract.MappedDatasetContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class JsonlContractTest extends MappedDatasetContract<String> {
    @TempDir
    Path dir;

    private Path file;

    @Override
    protected Opened<String> open() throws Exception {
        file = JsonlFiles.copy("python.jsonl", dir);
        JsonlDataset<String> ds = JsonlDataset.field(file, "text");
        return new Opened<>(ds, ds);
    }

    /** The contract cuts the data file short mid-epoch (a copy in the test's folder). */
    @Override
    protected Path mappedFile() {
        return file;
    }

    @Override
    protected Object content(String sample) {
        return sample;
    }
}
