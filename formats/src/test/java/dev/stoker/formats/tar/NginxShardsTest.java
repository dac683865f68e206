package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shards streamed from a real nginx on loopback, started here as a child process with its own
 * configuration in a temporary folder (no daemon, no master process, every path inside the
 * folder), so that the tests need no root and touch nothing of the system's nginx. Skipped
 * where no nginx binary is found ({@code .ci/run} installs one).
 */
class NginxShardsTest {
    private static final int SHARDS = 4;

    @TempDir
    static Path dir;

    private static Process nginx;
    private static String base;
    private static List<Path> local;
    private static List<Fixtures.Sample> samples;

    @BeforeAll
    static void startNginx() throws Exception {
        Path binary = findNginx();
        Assumptions.assumeTrue(binary != null, "no nginx binary (/usr/sbin/nginx or on PATH): skipped");
        Path www = Files.createDirectories(dir.resolve("www"));
        samples = Fixtures.randomSamples(new Random(23), 120);
        try (ShardWriter w = ShardWriter.builder(www.resolve("n-%d.tar").toString()).maxSamples(30).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        local = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            local.add(www.resolve("n-" + i + ".tar"));
        }
        // A port can be taken between our probe and nginx's bind: try a few.
        for (int attempt = 0; attempt < 5 && nginx == null; attempt++) {
            int port = freePort();
            Process p = start(binary, port);
            if (awaitListening(p, port)) {
                nginx = p;
                base = "http://127.0.0.1:" + port;
            } else {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        assertThat(nginx).as("nginx did not start; its log:\n%s", log()).isNotNull();
    }

    @AfterAll
    static void stopNginx() throws InterruptedException {
        if (nginx != null) {
            nginx.destroy(); // SIGTERM: nginx's fast shutdown
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            nginx = null;
        }
    }

    @Test
    void shardsReadOverHttpEqualTheLocalRead() {
        List<TarSample> remote = readAll(TarShardDataset.builder(base + "/n-{0..3}.tar").readAhead(4096).build());
        List<TarSample> fromDisk = readAll(TarShardDataset.builder(local.stream().map(Path::toString).toList()).build());

        assertThat(remote).hasSize(samples.size()).hasSameSizeAs(fromDisk);
        for (int i = 0; i < remote.size(); i++) {
            TarSample r = remote.get(i);
            TarSample l = fromDisk.get(i);
            assertThat(r.key()).isEqualTo(l.key());
            assertThat(new ArrayList<>(r.extensions())).isEqualTo(new ArrayList<>(l.extensions()));
            for (String ext : r.extensions()) {
                assertThat(Arrays.equals(r.bytes(ext), l.bytes(ext))).as("sample %s field %s", r.key(), ext).isTrue();
            }
            assertThat(samples.get(i).sameAs(r)).as("sample %d as written", i).isTrue();
            assertThat(r.url()).startsWith(base + "/n-");
        }
    }

    @Test
    void theLoaderWithWorkersDeliversEveryRemoteSampleOnce() {
        TarShardDataset ds = TarShardDataset.builder(base + "/n-{0..3}.tar").shuffleShards(true).shuffleBuffer(25).build();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(16).numWorkers(2).seed(7)
                .collate((batch, memory) -> batch.stream().map(TarSample::key).toList()).build()) {
            List<String> keys = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    @SuppressWarnings("unchecked")
                    List<String> got = (List<String>) b.data();
                    keys.addAll(got);
                }
            }
            assertThat(keys).containsExactlyInAnyOrderElementsOf(samples.stream().map(Fixtures.Sample::key).toList());
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void aShardNginxDoesNotHaveIsHttp404NamingTheUrl() {
        TarShardDataset ds = TarShardDataset.builder(base + "/missing.tar").build();
        assertThatThrownBy(() -> readAll(ds))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(base + "/missing.tar")
                .hasMessageContaining("HTTP 404");
    }

    private static List<TarSample> readAll(TarShardDataset ds) {
        List<TarSample> out = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            s.forEachRemaining(out::add);
        }
        return out;
    }

    private static Path findNginx() {
        Path sbin = Path.of("/usr/sbin/nginx");
        if (Files.isExecutable(sbin)) {
            return sbin;
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, "nginx");
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** nginx in the foreground, one process, every file it writes inside {@link #dir}. */
    private static Process start(Path binary, int port) throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String conf = """
                daemon off;
                master_process off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log info;
                events { worker_connections 64; }
                http {
                    access_log %1$s/access.log;
                    client_body_temp_path %2$s/body;
                    proxy_temp_path %2$s/proxy;
                    fastcgi_temp_path %2$s/fastcgi;
                    uwsgi_temp_path %2$s/uwsgi;
                    scgi_temp_path %2$s/scgi;
                    default_type application/octet-stream;
                    sendfile on;
                    server {
                        listen 127.0.0.1:%3$d;
                        root %1$s/www;
                    }
                }
                """.formatted(dir, tmp, port);
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf);
        // -e: the early error log too (before the configuration is read), which would go to /var/log
        return new ProcessBuilder(binary.toString(), "-p", dir.toString(), "-c", file.toString(),
                "-e", dir.resolve("error.log").toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile())
                .start();
    }

    /** Whether nginx accepts connections on {@code port} within 10 s (false once it has exited). */
    private static boolean awaitListening(Process p, int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                return false;
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return true;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        return false;
    }

    private static String log() {
        StringBuilder sb = new StringBuilder();
        for (String name : new String[] {"stdout.log", "error.log"}) {
            try (Stream<String> lines = Files.lines(dir.resolve(name))) {
                lines.forEach(l -> sb.append(name).append(": ").append(l).append('\n'));
            } catch (IOException | java.io.UncheckedIOException e) {
                sb.append(name).append(": (none)\n");
            }
        }
        return sb.toString();
    }
}
