package dev.stoker.formats.tar;

import dev.stoker.contract.StreamDatasetContract;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;

/** Local tar shards, read as a stream: split by worker and rank, skip, resume, reshard, close. */
class TarShardDatasetContractTest extends StreamDatasetContract<TarSample> {
    @TempDir
    Path dir;

    @Override
    protected Opened<TarSample> open() {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("s-%02d.tar").toString()).maxSamples(4).build()) {
            Fixtures.randomSamples(new Random(3), 22).forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        return Opened.of(TarShardDataset.builder(dir + "/s-{00..05}.tar").build());
    }

    @Override
    protected Object content(TarSample s) {
        return TarContent.of(s);
    }
}
