package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.remote.ShardCache;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remote shards kept in a local cache: fetched once, read locally after, never half kept. */
class ShardCacheTest {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    @TempDir
    Path dir;

    private HttpServer server;
    private String base;
    private List<Fixtures.Sample> samples;
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private byte[][] shards;

    @BeforeEach
    void serve() throws IOException {
        samples = Fixtures.randomSamples(new Random(17), 60);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("c-%d.tar").toString()).maxSamples(20).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        shards = new byte[3][];
        for (int i = 0; i < 3; i++) {
            shards[i] = Files.readAllBytes(dir.resolve("c-" + i + ".tar"));
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        for (int i = 0; i < 3; i++) {
            byte[] shard = shards[i];
            server.createContext("/c-" + i + ".tar", ex -> {
                count(ex.getRequestURI().getPath());
                ex.sendResponseHeaders(200, shard.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(shard);
                }
            });
        }
        server.createContext("/chunked.tar", ex -> { // no Content-Length
            count("/chunked.tar");
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(shards[0]);
            }
        });
        server.createContext("/dropped.tar", ex -> { // announces the whole shard, sends part of it
            count("/dropped.tar");
            ex.sendResponseHeaders(200, shards[0].length);
            OutputStream out = ex.getResponseBody();
            out.write(shards[0], 0, 7000);
            out.flush();
            ex.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void count(String path) {
        requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    }

    private int requestsFor(String path) {
        AtomicInteger n = requests.get(path);
        return n == null ? 0 : n.get();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static List<TarSample> readAll(TarShardDataset ds) {
        List<TarSample> got = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(ONE)) {
            s.forEachRemaining(got::add);
        }
        return got;
    }

    private static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.sorted().toList();
        }
    }

    private List<String> urls(int... shardNumbers) {
        List<String> out = new ArrayList<>();
        for (int i : shardNumbers) {
            out.add(base + "/c-" + i + ".tar");
        }
        return out;
    }

    @Test
    void aRemoteShardIsFetchedOnceAndReadFromItsCopyAfter() throws IOException {
        Path cacheDir = dir.resolve("cache");
        TarShardDataset ds = TarShardDataset.builder(urls(0, 1, 2)).cache(ShardCache.in(cacheDir)).build();
        for (int epoch = 0; epoch < 3; epoch++) {
            List<TarSample> got = readAll(ds);
            assertThat(got).hasSize(60);
            for (int i = 0; i < 60; i++) {
                assertThat(samples.get(i).sameAs(got.get(i))).as("epoch %d sample %d", epoch, i).isTrue();
            }
            assertThat(got.getFirst().url()).as("the sample still names its remote shard").isEqualTo(base + "/c-0.tar");
            boolean fromCopy = epoch > 0;
            assertThat(got.getFirst().fields().values().iterator().next().isNative()).isEqualTo(fromCopy);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(requestsFor("/c-" + i + ".tar")).as("shard %d", i).isEqualTo(1);
            assertThat(Files.readAllBytes(ShardCache.in(cacheDir).fileFor(base + "/c-" + i + ".tar")))
                    .isEqualTo(shards[i]);
        }
        assertThat(files(cacheDir)).hasSize(3).noneMatch(p -> p.toString().endsWith(ShardCache.PART));
    }

    @Test
    void aStreamWithoutALengthIsKeptWhenItEndsCleanly() throws IOException {
        Path cacheDir = dir.resolve("cache");
        TarShardDataset ds = TarShardDataset.builder(List.of(base + "/chunked.tar"))
                .cache(ShardCache.in(cacheDir)).build();
        assertThat(readAll(ds)).hasSize(20);
        assertThat(readAll(ds)).hasSize(20);
        assertThat(requestsFor("/chunked.tar")).isEqualTo(1);
    }

    @Test
    void aDownloadCutShortIsNotKept() throws IOException {
        Path cacheDir = dir.resolve("cache");
        TarShardDataset ds = TarShardDataset.builder(List.of(base + "/dropped.tar"))
                .cache(ShardCache.in(cacheDir)).build();
        for (int attempt = 1; attempt <= 2; attempt++) {
            assertThatThrownBy(() -> readAll(ds)).isInstanceOf(TarException.class);
            assertThat(requestsFor("/dropped.tar")).as("fetched again: nothing was kept").isEqualTo(attempt);
            assertThat(files(cacheDir)).isEmpty();
        }
    }

    @Test
    void aFailedCommandIsNotKept() throws IOException {
        Path cacheDir = dir.resolve("cache");
        String location = "pipe:cat '" + dir.resolve("c-0.tar") + "'; exit 2";
        TarShardDataset ds = TarShardDataset.builder(List.of(location)).cache(ShardCache.in(cacheDir)).build();
        assertThatThrownBy(() -> readAll(ds)).hasMessageContaining("status 2");
        assertThat(files(cacheDir)).isEmpty();

        String good = "pipe:cat '" + dir.resolve("c-1.tar") + "'";
        TarShardDataset ok = TarShardDataset.builder(List.of(good)).cache(ShardCache.in(cacheDir)).build();
        assertThat(readAll(ok)).hasSize(20);
        assertThat(files(cacheDir)).containsExactly(ShardCache.in(cacheDir).fileFor(good));
    }

    @Test
    void aShardClosedBeforeItsEndIsNotKept() throws IOException {
        Path cacheDir = dir.resolve("cache");
        TarShardDataset ds = TarShardDataset.builder(urls(0)).cache(ShardCache.in(cacheDir)).build();
        try (SampleStream<TarSample> s = ds.open(ONE)) {
            s.next();
        }
        assertThat(files(cacheDir)).isEmpty();
    }

    @Test
    void overTheLimitTheCopiesUsedLeastRecentlyGo() throws IOException {
        Path cacheDir = dir.resolve("cache");
        long limit = shards[0].length + shards[1].length + shards[2].length / 2;
        ShardCache cache = ShardCache.in(cacheDir, limit);
        long now = System.currentTimeMillis();
        readAll(TarShardDataset.builder(urls(0, 1)).cache(cache).build());
        // Their last use an hour and a minute ago, shard 0's the earlier.
        Files.setLastModifiedTime(cache.fileFor(urls(0).getFirst()), FileTime.fromMillis(now - 3_600_000));
        Files.setLastModifiedTime(cache.fileFor(urls(1).getFirst()), FileTime.fromMillis(now - 60_000));
        readAll(TarShardDataset.builder(urls(0)).cache(cache).build()); // used again: 1 is now the oldest
        readAll(TarShardDataset.builder(urls(2)).cache(cache).build());
        assertThat(files(cacheDir)).containsExactlyInAnyOrder(cache.fileFor(urls(0).getFirst()),
                cache.fileFor(urls(2).getFirst()));
        assertThat(requestsFor("/c-0.tar")).isEqualTo(1);
    }

    @Test
    void copiesAreNamedApartAndRecognizably() {
        ShardCache cache = ShardCache.in(dir.resolve("cache"));
        Path a = cache.fileFor("https://host/a/train-000001.tar");
        Path b = cache.fileFor("https://other/a/train-000001.tar");
        assertThat(a).isNotEqualTo(b);
        assertThat(a.getFileName().toString()).endsWith("train-000001.tar").doesNotContain("/", ":");
        assertThat(cache.fileFor("pipe:aws s3 cp s3://bucket/x-7.tar -").getFileName().toString())
                .endsWith(".tar").contains("x-7.tar");
        assertThatThrownBy(() -> ShardCache.in(dir, 0)).hasMessageContaining("positive");
    }
}
