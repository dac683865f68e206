package dev.stoker.formats.tar;

import dev.stoker.formats.contract.MappedDatasetContract;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

class IndexedTarDatasetContractTest extends MappedDatasetContract<TarSample> {

    private Path lastShard;

    @Override
    protected Path mappedFile() {
        return lastShard; // its samples come in the second half of the epoch, after the shard is cut short
    }

    @Override
    protected Opened<TarSample> open() throws Exception {
        Path dir = Files.createTempDirectory("stoker-tar-contract");
        List<String> names = new ArrayList<>();
        ShardWriter w = ShardWriter.builder(dir.resolve("c-%02d.tar").toString()).maxSamples(7).build();
        try (w) {
            Fixtures.randomSamples(new Random(8), 30).forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        w.shards().forEach(s -> names.add(s.path().toString()));
        lastShard = Path.of(names.get(names.size() - 1));
        IndexedTarDataset ds = IndexedTarDataset.open(names, IndexedTarDataset.MissingIndex.FAIL);
        return new Opened<>(ds, () -> {
            ds.close();
            if (!Files.isDirectory(dir)) {
                return; // closed before
            }
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        });
    }

    @Override
    protected Object content(TarSample sample) {
        List<Object> c = new ArrayList<>();
        c.add(sample.key());
        sample.fields().forEach((ext, data) -> c.add(ext + "=" + Arrays.toString(data.toArray(ValueLayout.JAVA_BYTE))));
        return c;
    }
}
