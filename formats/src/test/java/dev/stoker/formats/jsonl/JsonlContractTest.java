package dev.stoker.formats.jsonl;

import dev.stoker.formats.contract.MapDatasetContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class JsonlContractTest extends MapDatasetContract<String> {
    @TempDir
    Path dir;

    @Override
    protected Opened<String> open() throws Exception {
        JsonlDataset<String> ds = JsonlDataset.field(JsonlFiles.copy("python.jsonl", dir), "text");
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(String sample) {
        return sample;
    }
}
