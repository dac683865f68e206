package dev.stoker.formats.lmdb;

import dev.stoker.contract.MapDatasetContract;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;

/** The map-style reader contract, over an environment LmdbWriter wrote. */
class LmdbWriterContractTest extends MapDatasetContract<LmdbSample> {
    @TempDir
    Path dir;

    @Override
    protected Opened<LmdbSample> open() {
        Path env = dir.resolve("env");
        Random rnd = new Random(5);
        List<byte[]> values = LmdbWriterTest.values(rnd, 23);
        try (LmdbWriter w = LmdbWriter.builder(env).commitEvery(4, 1 << 16).build()) {
            for (int i = 0; i < values.size(); i++) {
                w.append(values.get(i), i % 10);
            }
            w.commit();
        }
        LmdbDataset ds = LmdbDataset.open(env);
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(LmdbSample sample) {
        return List.of(sample.index(), sample.key(), Arrays.toString(sample.value()), sample.label());
    }
}
