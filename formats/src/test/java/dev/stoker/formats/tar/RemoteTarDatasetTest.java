package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stoker.formats.remote.ShardCache;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.sampler.BlockShuffleSampler;
import dev.stoker.sampler.ElasticBatchSampler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remote shards read by index: sidecars at open, each shard fetched once, by offset from the cache. */
class RemoteTarDatasetTest {
    @TempDir
    Path dir;

    private HttpServer server;
    private String base;
    private List<Fixtures.Sample> samples;
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final Map<String, byte[]> served = new ConcurrentHashMap<>();

    @BeforeEach
    void serve() throws IOException {
        samples = Fixtures.randomSamples(new Random(29), 100);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("r-%d.tar").toString()).maxSamples(13).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        for (int i = 0; i < 8; i++) {
            served.put("/r-" + i + ".tar", Files.readAllBytes(dir.resolve("r-" + i + ".tar")));
            served.put("/r-" + i + ".tar.idx", Files.readAllBytes(dir.resolve("r-" + i + ".tar.idx")));
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            byte[] body = served.get(path);
            if (body == null) {
                ex.sendResponseHeaders(404, -1);
                ex.close();
                return;
            }
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private int requestsFor(String path) {
        AtomicInteger n = requests.get(path);
        return n == null ? 0 : n.get();
    }

    private RemoteTarDataset.Builder remote() {
        return RemoteTarDataset.builder(base + "/r-{0..7}.tar").cache(ShardCache.in(dir.resolve("cache")));
    }

    @Test
    void openingFetchesTheSidecarsAndAShardIsFetchedOnlyWhenASampleIsAskedFor() {
        RemoteTarDataset ds = remote().build();
        assertThat(ds.size()).isEqualTo(100);
        assertThat(ds.shardCount()).isEqualTo(8);
        for (int i = 0; i < 8; i++) {
            assertThat(requestsFor("/r-" + i + ".tar.idx")).isEqualTo(1);
            assertThat(requestsFor("/r-" + i + ".tar")).isZero();
        }
        TarSample s = ds.get(40); // shard 3
        assertThat(samples.get(40).sameAs(s)).isTrue();
        assertThat(s.url()).isEqualTo(base + "/r-3.tar");
        assertThat(requestsFor("/r-3.tar")).isEqualTo(1);
        assertThat(requestsFor("/r-0.tar")).isZero();
        for (int i = 0; i < 100; i++) {
            assertThat(samples.get(i).sameAs(ds.get(i))).as("sample %d", i).isTrue();
        }
        for (int i = 0; i < 8; i++) {
            assertThat(requestsFor("/r-" + i + ".tar")).as("shard %d", i).isEqualTo(1);
        }
        RemoteTarDataset again = remote().build(); // a new run: the cache has it all
        assertThat(samples.get(99).sameAs(again.get(99))).isTrue();
        assertThat(requestsFor("/r-7.tar")).isEqualTo(1);
        assertThat(requestsFor("/r-7.tar.idx")).isEqualTo(1);
    }

    @Test
    void aHintStartsTheFetchWithoutWaitingAndTheSampleUsesIt() {
        RemoteTarDataset ds = remote().build();
        ds.willNeed(new long[] {80, 81, 90}); // shard 6
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> { // a hang guard, not a speed check
            while (requestsFor("/r-6.tar") == 0) {
                Thread.sleep(5);
            }
        });
        assertThat(samples.get(81).sameAs(ds.get(81))).isTrue();
        assertThat(requestsFor("/r-6.tar")).isEqualTo(1);
        assertThat(requestsFor("/r-5.tar")).isZero();
        ds.willNeed(new long[] {-1, 1000}); // outside: ignored, as a hint may be
    }

    @Test
    void workersAskingForTheSameShardAtOnceShareOneFetch() throws Exception {
        RemoteTarDataset ds = remote().build();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<TarSample>> got = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int i = 13 + t; // all in shard 1
                got.add(pool.submit(() -> ds.get(i)));
            }
            for (int t = 0; t < 8; t++) {
                assertThat(samples.get(13 + t).sameAs(got.get(t).get())).isTrue();
            }
        }
        assertThat(requestsFor("/r-1.tar")).isEqualTo(1);
    }

    @Test
    void aCacheTooSmallForTheWorkingSetRefetchesButNeverFailsAReader() throws Exception {
        RemoteTarDataset ds = RemoteTarDataset.builder(base + "/r-{0..7}.tar")
                .cache(ShardCache.in(dir.resolve("tiny"), 1)).maxMappedShards(1).build(); // every copy evicts the others
        Random random = new Random(2);
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<Boolean>> checks = new ArrayList<>();
            for (int t = 0; t < 200; t++) {
                int i = random.nextInt(100);
                checks.add(pool.submit(() -> samples.get(i).sameAs(ds.get(i))));
            }
            for (Future<Boolean> c : checks) {
                assertThat(c.get()).isTrue();
            }
        }
    }

    @Test
    void aBlockShuffledElasticOrderReadsEverySampleOnceAcrossAChangeOfRanks() {
        RemoteTarDataset ds = remote().maxMappedShards(2).build();
        Map<String, Integer> seen = new HashMap<>();
        LoaderState state = null;
        for (int rank = 0; rank < 2; rank++) {
            try (DataLoader<TarSample> loader = loader(ds, rank, 2)) {
                state = ResumeRuns.stopAfter(loader, 1, 2, b -> keys(b, seen), new ArrayList<>());
            }
        }
        for (int rank = 0; rank < 3; rank++) {
            try (DataLoader<TarSample> loader = loader(ds, rank, 3)) {
                loader.restore(state);
                ResumeRuns.stopAfter(loader, 1, Integer.MAX_VALUE, b -> keys(b, seen), new ArrayList<>());
            }
        }
        assertThat(seen).hasSize(100).allSatisfy((key, n) -> assertThat(n).as(key).isEqualTo(1));
        for (int i = 0; i < 8; i++) {
            assertThat(requestsFor("/r-" + i + ".tar")).as("shard %d fetched once, then mapped from the cache", i)
                    .isEqualTo(1);
        }
    }

    private static DataLoader<TarSample> loader(RemoteTarDataset ds, int rank, int world) {
        return DataLoader.builder(ds)
                .batchSampler(ElasticBatchSampler.over(new BlockShuffleSampler(ds.size(), 13, 2, 5), 12, false, rank, world))
                .numWorkers(2)
                .collate((batch, memory) -> batch.stream().map(TarSample::key).toList()).build();
    }

    @SuppressWarnings("unchecked")
    private static String keys(Batch b, Map<String, Integer> seen) {
        for (String k : (List<String>) b.data()) {
            seen.merge(k, 1, Integer::sum);
        }
        return "";
    }

    @Test
    void aMissingSidecarSaysWhichAndHowToMakeOne() {
        served.remove("/r-5.tar.idx");
        assertThatThrownBy(() -> remote().build())
                .isInstanceOf(TarException.class)
                .hasMessageContaining(base + "/r-5.tar")
                .hasMessageContaining("HTTP 404")
                .hasMessageContaining("stoker index");
    }

    @Test
    void aShardThatIsNotWhatItsSidecarSaysIsRefusedAndNotKept() throws IOException {
        RemoteTarDataset ds = remote().build();
        byte[] shard = served.get("/r-2.tar");
        served.put("/r-2.tar", java.util.Arrays.copyOf(shard, shard.length + 10240)); // re-written since
        assertThatThrownBy(() -> ds.get(26))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(base + "/r-2.tar")
                .hasMessageContaining("stale index");
        assertThat(ShardCache.in(dir.resolve("cache")).fileFor(base + "/r-2.tar")).doesNotExist();
        served.put("/r-2.tar", shard); // put right: the next ask fetches it again
        assertThat(samples.get(26).sameAs(ds.get(26))).isTrue();
        assertThat(requestsFor("/r-2.tar")).isEqualTo(2);
    }

    @Test
    void aBadSidecarIsNamedAndNotKept() {
        served.put("/r-4.tar.idx", "not an index at all".getBytes());
        assertThatThrownBy(() -> remote().build())
                .isInstanceOf(TarException.class)
                .hasMessageContaining(base + "/r-4.tar.idx")
                .hasMessageContaining("not a valid shard index");
        assertThat(ShardCache.in(dir.resolve("cache")).indexFileFor(base + "/r-4.tar.idx")).doesNotExist();
    }

    @Test
    void commandShardsSayWhereTheirSidecarsAre() {
        String shard = "pipe:cat '" + dir.resolve("r-0.tar") + "'";
        assertThatThrownBy(() -> RemoteTarDataset.builder(List.of(shard)).cache(ShardCache.in(dir.resolve("c")))
                .build()).hasMessageContaining("indexLocation");
        RemoteTarDataset ds = RemoteTarDataset.builder(List.of(shard)).cache(ShardCache.in(dir.resolve("c")))
                .indexLocation(s -> s.replace(".tar'", ".tar.idx'")).build();
        assertThat(ds.size()).isEqualTo(13);
        assertThat(samples.get(12).sameAs(ds.get(12))).isTrue();
        assertThatThrownBy(() -> RemoteTarDataset.builder(List.of(dir.resolve("r-0.tar").toString()))
                .cache(ShardCache.in(dir.resolve("c"))).build()).hasMessageContaining("IndexedTarDataset");
        assertThatThrownBy(() -> RemoteTarDataset.builder(base + "/r-0.tar").build()).hasMessageContaining("cache");
    }
}
