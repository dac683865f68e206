package dev.stoker.formats.jsonl;

import dev.stoker.contract.StreamDatasetContract;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/** JSONL files read as a stream (plain and gzip, files shuffled): split by worker and rank, skip, resume, close. */
class JsonlStreamContractTest extends StreamDatasetContract<String> {
    @TempDir
    Path dir;

    @Override
    protected Opened<String> open() throws Exception {
        List<Path> files = List.of(JsonlFiles.copy("python.jsonl", dir), JsonlFiles.copy("python.jsonl.gz", dir));
        return Opened.of(JsonlStream.field(files, "text").withShuffledFiles(true));
    }

    @Override
    protected Object content(String s) {
        return s;
    }
}
