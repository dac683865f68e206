package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/** Threads racing to first-open (decompress, map) the same shards all read the values the writer was given. */
class MdsConcurrentReadersTest {
    @TempDir
    Path dir;

    @RepeatedTest(3)
    void threadsRacingOnFirstOpenReadTheSameValues() throws Exception {
        JsonNode expected = MdsFixtures.expected("scalars_zstd");
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars_zstd", dir));
             ExecutorService pool = Executors.newFixedThreadPool(6)) {
            ds.willNeed(new long[] {0, 5, 11});
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int offset = t;
                done.add(pool.submit(() -> {
                    for (long k = 0; k < ds.size(); k++) {
                        long i = (k + offset * 5L) % ds.size(); // each thread starts in a different shard
                        ExpectedValues.assertSample(ds.get(i), expected.get("columns"),
                                expected.get("samples").get((int) i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
