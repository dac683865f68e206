package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stoker.formats.remote.RemoteFile;
import dev.stoker.formats.remote.RemoteSettings;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shards served by the JDK's HTTP server on loopback, whole, cut short, or missing. */
class HttpShardsTest {
    @TempDir
    Path dir;

    private HttpServer server;
    private String base;
    private List<Fixtures.Sample> samples;

    @BeforeEach
    void serve() throws Exception {
        samples = Fixtures.randomSamples(new Random(11), 40);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("h-%d.tar").toString()).maxSamples(20).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        byte[] shard0 = Files.readAllBytes(dir.resolve("h-0.tar"));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/h-0.tar", ex -> {
            ex.sendResponseHeaders(200, shard0.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(shard0);
            }
        });
        // announces the whole length, sends 5000 bytes, then drops the connection
        server.createContext("/dropped.tar", ex -> {
            ex.sendResponseHeaders(200, shard0.length);
            OutputStream out = ex.getResponseBody();
            out.write(shard0, 0, 5000);
            out.flush();
            ex.getHttpContext().getServer();
            ex.close(); // closes before the announced length: the client sees the connection end early
        });
        // chunked (no length) and cut short: the tar parser finds the truncation
        server.createContext("/chunked-short.tar", ex -> {
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(shard0, 0, 5000);
            }
        });
        // sends 5000 bytes, then nothing, with the connection left open
        CountDownLatch release = new CountDownLatch(1);
        releaseStalled = release;
        server.createContext("/stalled.tar", ex -> {
            ex.sendResponseHeaders(200, shard0.length);
            OutputStream out = ex.getResponseBody();
            out.write(shard0, 0, 5000);
            out.flush();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(Executors.newCachedThreadPool()); // the stalled exchange must not hold up the others
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private CountDownLatch releaseStalled;

    @AfterEach
    void stop() {
        releaseStalled.countDown();
        server.stop(0);
    }

    @Test
    void aShardStreamsOverHttpAndMixesWithLocalFiles() {
        List<String> shards = List.of(base + "/h-0.tar", dir.resolve("h-1.tar").toString());
        TarShardDataset ds = TarShardDataset.builder(shards).readAhead(4096).build();
        List<TarSample> got = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            s.forEachRemaining(got::add);
        }
        assertThat(got).hasSize(40);
        for (int i = 0; i < 40; i++) {
            assertThat(samples.get(i).sameAs(got.get(i))).as("sample %d", i).isTrue();
        }
        assertThat(got.getFirst().url()).isEqualTo(base + "/h-0.tar");
        assertThat(got.getFirst().fields().values().iterator().next().isNative()).isFalse(); // streamed: heap
        assertThat(got.getLast().fields().values().iterator().next().isNative()).isTrue(); // mapped
    }

    @Test
    void aDroppedConnectionNamesTheUrlAndOffset() {
        assertThatThrownBy(() -> drain(base + "/dropped.tar"))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(base + "/dropped.tar")
                .hasMessageMatching("(?s).*byte offset (4[0-9]{3}|5000).*");
    }

    @Test
    void aShortChunkedBodyIsATruncatedShard() {
        assertThatThrownBy(() -> drain(base + "/chunked-short.tar"))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(base + "/chunked-short.tar")
                .hasMessageContaining("truncated");
    }

    @Test
    void aMissingShardSaysHttp404() {
        assertThatThrownBy(() -> drain(base + "/nope.tar"))
                .isInstanceOf(TarException.class).hasMessageContaining("HTTP 404");
    }

    @Test
    void aStalledServerFailsTheShardAfterTheReadTimeout() {
        String url = base + "/stalled.tar";
        TarShardDataset ds = TarShardDataset.builder(List.of(url)).readTimeout(Duration.ofMillis(300)).build();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> { // a hang guard, not a speed check
            try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
                assertThatThrownBy(() -> s.forEachRemaining(x -> { }))
                        .isInstanceOf(TarException.class)
                        .hasMessageContaining(url)
                        .hasStackTraceContaining("the server stalled");
            }
        });
    }

    private void drain(String url) {
        try (TarReader r = ShardSources.open(RemoteFile.at(url), RemoteSettings.defaults().withReadAhead(8192))) {
            r.forEachRemaining(m -> { });
        }
    }
}
