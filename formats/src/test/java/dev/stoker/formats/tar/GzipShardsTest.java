package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stoker.formats.remote.ShardCache;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gzip-compressed shards, local, served, cached, written by Python's tarfile, and damaged. */
class GzipShardsTest {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    @TempDir
    Path dir;

    private List<Fixtures.Sample> samples;

    @BeforeEach
    void writeShards() throws IOException {
        samples = Fixtures.randomSamples(new Random(23), 60);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("g-%d.tar").toString()).maxSamples(20).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        for (int i = 0; i < 3; i++) {
            Files.write(dir.resolve("g-" + i + ".tar.gz"), gzip(Files.readAllBytes(dir.resolve("g-" + i + ".tar"))));
        }
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    private static List<TarSample> readAll(TarShardDataset ds) {
        List<TarSample> got = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(ONE)) {
            s.forEachRemaining(got::add);
        }
        return got;
    }

    private void assertAllSamples(List<TarSample> got) {
        assertThat(got).hasSize(60);
        for (int i = 0; i < 60; i++) {
            assertThat(samples.get(i).sameAs(got.get(i))).as("sample %d", i).isTrue();
        }
    }

    @Test
    void aCompressedShardReadsAsTheTarItHolds() {
        List<TarSample> got = readAll(TarShardDataset.builder(dir.resolve("g-{0..2}.tar.gz").toString()).build());
        assertAllSamples(got);
        assertThat(got.getFirst().url()).isEqualTo(dir.resolve("g-0.tar.gz").toString());
        assertThat(got.getFirst().fields().values().iterator().next().isNative()).as("inflated: heap").isFalse();
    }

    @Test
    void compressionIsRecognizedByItsMagicNotItsName() throws IOException {
        Files.move(dir.resolve("g-0.tar.gz"), dir.resolve("misnamed.tar"));
        List<TarSample> got = readAll(TarShardDataset.builder(List.of(dir.resolve("misnamed.tar").toString())).build());
        assertThat(got).hasSize(20);
        assertThat(readAll(TarShardDataset.builder(List.of(dir.resolve("g-1.tar").toString())).build())
                .getFirst().fields().values().iterator().next().isNative()).as("plain: mapped").isTrue();
    }

    @Test
    void pythonTarfileGzShardsRead() throws Exception {
        Assumptions.assumeTrue(ShardWriterTest.hasPython(), "python3 is not installed");
        Path out = dir.resolve("py.tar.gz");
        String script = "import tarfile,io,sys\n"
                + "with tarfile.open(sys.argv[1], 'w:gz') as t:\n"
                + "  for i in range(5):\n"
                + "    for ext, data in (('txt', ('sample %d' % i).encode()), ('cls', str(i).encode())):\n"
                + "      info = tarfile.TarInfo('%06d.%s' % (i, ext)); info.size = len(data)\n"
                + "      t.addfile(info, io.BytesIO(data))\n";
        Process p = new ProcessBuilder("python3", "-c", script, out.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(log).isZero();
        List<TarSample> got = readAll(TarShardDataset.builder(List.of(out.toString())).build());
        assertThat(got).hasSize(5);
        assertThat(got.get(3).key()).isEqualTo("000003");
        assertThat(got.get(3).string("txt")).isEqualTo("sample 3");
        assertThat(got.get(3).string("cls")).isEqualTo("3");
    }

    @Test
    void aServedCompressedShardIsCachedAsItCameAndReadFromTheCopy() throws IOException {
        byte[] served = Files.readAllBytes(dir.resolve("g-0.tar.gz"));
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/g-0.tgz", ex -> {
            requests.incrementAndGet();
            ex.sendResponseHeaders(200, served.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(served);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/g-0.tgz";
            ShardCache cache = ShardCache.in(dir.resolve("cache"));
            TarShardDataset ds = TarShardDataset.builder(List.of(url)).cache(cache).build();
            for (int epoch = 0; epoch < 2; epoch++) {
                List<TarSample> got = readAll(ds);
                assertThat(got).hasSize(20);
                for (int i = 0; i < 20; i++) {
                    assertThat(samples.get(i).sameAs(got.get(i))).as("epoch %d sample %d", epoch, i).isTrue();
                }
            }
            assertThat(requests.get()).isEqualTo(1);
            assertThat(Files.readAllBytes(cache.fileFor(url))).as("kept compressed").isEqualTo(served);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void damagedOrCutCompressedDataFailsTheShardByName() throws IOException {
        byte[] good = Files.readAllBytes(dir.resolve("g-0.tar.gz"));
        Random random = new Random(3);
        for (int trial = 0; trial < 40; trial++) {
            byte[] bad = good.clone();
            if (trial % 2 == 0) {
                bad = Arrays.copyOf(bad, 10 + random.nextInt(bad.length - 10));
            } else {
                for (int k = 0; k < 4; k++) {
                    bad[10 + random.nextInt(bad.length - 18)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            Path file = dir.resolve("bad-" + trial + ".tar.gz");
            Files.write(file, bad);
            TarShardDataset ds = TarShardDataset.builder(List.of(file.toString())).build();
            String what = "trial " + trial;
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> { // a hang guard, not a speed check
                assertThatThrownBy(() -> readAll(ds)).as(what).isInstanceOf(TarException.class)
                        .hasMessageContaining(file.toString());
            });
        }
    }

    @Test
    void aStreamedMemberOverTheLimitFailsItsShardBeforeAnythingIsAllocated() throws IOException {
        // 4 MB of zeros inflate from a few kilobytes: a gzip bomb in miniature
        try (ShardWriter w = ShardWriter.builder(dir.resolve("bomb-%d.tar").toString()).build()) {
            w.write("000000", java.util.Map.of("bin", new byte[4 << 20]));
            w.write("000001", java.util.Map.of("bin", new byte[1 << 20]));
            w.commit();
        }
        Path bomb = dir.resolve("bomb.tar.gz");
        Files.write(bomb, gzip(Files.readAllBytes(dir.resolve("bomb-0.tar"))));
        assertThat(Files.size(bomb)).isLessThan(64 << 10);
        TarShardDataset strict = TarShardDataset.builder(List.of(bomb.toString())).maxMemberBytes(2 << 20).build();
        assertThatThrownBy(() -> readAll(strict)).isInstanceOf(TarException.class)
                .hasMessageContaining(bomb.toString())
                .hasMessageContaining("4194304 bytes")
                .hasMessageContaining("maxMemberBytes");
        TarShardDataset roomy = TarShardDataset.builder(List.of(bomb.toString())).maxMemberBytes(4 << 20).build();
        assertThat(readAll(roomy)).hasSize(2);
        assertThatThrownBy(() -> TarShardDataset.builder(List.of(bomb.toString())).maxMemberBytes(0))
                .hasMessageContaining("positive");
    }

    @Test
    void theWriterCompressesWhenTheNameSaysGzAndPythonReadsIt() throws Exception {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("w-%d.tar.gz").toString()).maxSamples(30).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
            assertThat(w.shards()).hasSize(2).allSatisfy(info -> {
                assertThat(GzipShards.isGzip(info.path())).isTrue();
                assertThat(info.bytes()).isEqualTo(Files.size(info.path()));
            });
        }
        assertThat(dir.resolve("w-0.tar.gz.idx")).doesNotExist();
        assertAllSamples(readAll(TarShardDataset.builder(dir.resolve("w-{0..1}.tar.gz").toString()).build()));
        Assumptions.assumeTrue(ShardWriterTest.hasPython(), "python3 is not installed");
        Process p = new ProcessBuilder("python3", "-c",
                "import tarfile,sys\nprint(len(tarfile.open(sys.argv[1], 'r:gz').getnames()))",
                dir.resolve("w-0.tar.gz").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        long members = samples.subList(0, 30).stream().mapToLong(s -> s.fields().size()).sum();
        assertThat(out).isEqualTo(Long.toString(members));
    }

    @Test
    void randomAccessRefusesCompressedShards() {
        assertThatThrownBy(() -> IndexedTarDataset.open(List.of(dir.resolve("g-0.tar.gz").toString()),
                IndexedTarDataset.MissingIndex.BUILD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gzip-compressed");
    }

    @Test
    void compressedShardsResumeOnAnotherLayout() {
        TarShardDataset ds = TarShardDataset.builder(dir.resolve("g-{0..2}.tar.gz").toString()).shuffleShards(true)
                .build();
        Random random = new Random(9);
        for (int trial = 0; trial < 6; trial++) {
            List<String> keys = new ArrayList<>();
            List<LoaderState> ranks = new ArrayList<>();
            int before = 1 + random.nextInt(2);
            int workersBefore = random.nextInt(3);
            for (int r = 0; r < before; r++) {
                try (DataLoader<TarSample> loader = loader(ds, r, before, workersBefore, trial)) {
                    ranks.add(ResumeRuns.stopAfter(loader, 1, 1 + random.nextInt(3),
                            b -> keysOf(b, keys), new ArrayList<>()));
                }
            }
            LoaderState merged = LoaderState.merge(ranks);
            int after = 1 + random.nextInt(3);
            int workersAfter = random.nextInt(3);
            for (int r = 0; r < after; r++) {
                try (DataLoader<TarSample> loader = loader(ds, r, after, workersAfter, trial)) {
                    loader.restore(merged);
                    ResumeRuns.stopAfter(loader, 1, Integer.MAX_VALUE, b -> keysOf(b, keys), new ArrayList<>());
                }
            }
            assertThat(keys).as("trial %d", trial).hasSize(60).doesNotHaveDuplicates();
        }
    }

    private static DataLoader<TarSample> loader(TarShardDataset ds, int rank, int world, int workers, long seed) {
        return DataLoader.builder(ds).batchSize(4).numWorkers(workers).rank(rank).worldSize(world).seed(seed)
                .collate((samples, memory) -> samples.stream().map(TarSample::key).toList()).build();
    }

    @SuppressWarnings("unchecked")
    private static String keysOf(dev.stoker.loader.Batch b, List<String> keys) {
        keys.addAll((List<String>) b.data());
        return "";
    }
}
