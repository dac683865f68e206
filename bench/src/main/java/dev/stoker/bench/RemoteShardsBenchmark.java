package dev.stoker.bench;

import com.sun.net.httpserver.HttpServer;
import dev.stoker.formats.remote.ShardCache;
import dev.stoker.formats.tar.RemoteTarDataset;
import dev.stoker.formats.tar.ShardWriter;
import dev.stoker.formats.tar.TarSample;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.sampler.BlockShuffleSampler;
import dev.stoker.sampler.ElasticBatchSampler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One epoch over remote shards that have not been fetched yet, from a server that takes
 * {@code latencyMs} to answer each request: 16 shards of 64 samples, read in a shard-local
 * shuffle (blocks of a shard, 2 open at a time) by 2 workers, batches of 16, a training step of
 * 5 ms. With {@code lookahead} 0 a worker waits for every shard it reaches; with a lookahead the
 * fetches start while the steps before run. The baseline is the same epoch with every shard
 * already in the cache.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar RemoteShardsBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class RemoteShardsBenchmark {
    static final int SHARDS = 16;
    static final int PER_SHARD = 64;

    @Param({"100"})
    public int latencyMs;

    @Param({"0", "4", "16", "32"})
    public int lookahead;

    private Path dir;
    private HttpServer server;
    private String pattern;
    private Path cacheDir;
    private Path warmDir;

    @Setup(Level.Trial)
    public void serve() throws IOException {
        dir = Files.createTempDirectory("stoker-remote-bench");
        Random random = new Random(1);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("s-%d.tar").toString()).maxSamples(PER_SHARD).build()) {
            for (int i = 0; i < SHARDS * PER_SHARD; i++) {
                byte[] data = new byte[8 << 10];
                random.nextBytes(data);
                w.write(String.format("%06d", i), Map.of("bin", data));
            }
            w.commit();
        }
        Map<String, byte[]> files = new HashMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                files.put("/" + p.getFileName(), Files.readAllBytes(p));
            }
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            try {
                Thread.sleep(latencyMs); // the time to first byte of a far store
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = files.get(ex.getRequestURI().getPath());
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                if (body != null) {
                    out.write(body);
                }
            }
        });
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        pattern = "http://127.0.0.1:" + server.getAddress().getPort() + "/s-{0.." + (SHARDS - 1) + "}.tar";
        warmDir = Files.createTempDirectory(dir, "warm");
        RemoteTarDataset warm = RemoteTarDataset.builder(pattern).cache(ShardCache.in(warmDir)).build();
        for (int s = 0; s < SHARDS; s++) {
            warm.get((long) s * PER_SHARD); // every shard in the cache: the baseline's
        }
    }

    /** A cache holding the sidecars only: every shard is still to fetch. */
    @Setup(Level.Invocation)
    public void emptyCache() throws IOException {
        cacheDir = Files.createTempDirectory(dir, "cache");
        RemoteTarDataset.builder(pattern).cache(ShardCache.in(cacheDir)).build();
    }

    private long epoch(RemoteTarDataset ds) throws InterruptedException {
        long sum = 0;
        try (DataLoader<TarSample> loader = DataLoader.builder(ds)
                .batchSampler(ElasticBatchSampler.over(new BlockShuffleSampler(ds.size(), PER_SHARD, 2, 7), 16, false,
                        0, 1))
                .numWorkers(2).lookahead(lookahead)
                .collate((samples, memory) -> samples.size()).build()) {
            for (Batch b : loader) {
                try (b) {
                    sum += (Integer) b.data();
                    Thread.sleep(5); // the training step
                }
            }
        }
        return sum;
    }

    @Benchmark
    public long coldShards() throws InterruptedException {
        return epoch(RemoteTarDataset.builder(pattern).cache(ShardCache.in(cacheDir)).build());
    }

    @Benchmark
    public long cachedShards() throws InterruptedException {
        return epoch(RemoteTarDataset.builder(pattern).cache(ShardCache.in(warmDir)).build());
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        server.stop(0);
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
