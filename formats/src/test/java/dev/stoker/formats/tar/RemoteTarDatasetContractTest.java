package dev.stoker.formats.tar;

import dev.stoker.formats.remote.ShardCache;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.contract.MapDatasetContract;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;

/** Remote tar shards by index, served over HTTP from a folder and cached: the map-style contract. */
class RemoteTarDatasetContractTest extends MapDatasetContract<TarSample> {
    @TempDir
    Path dir;

    @Override
    protected Opened<TarSample> open() throws Exception {
        Path served = Files.createDirectories(dir.resolve("served"));
        try (ShardWriter w = ShardWriter.builder(served.resolve("r-%d.tar").toString()).maxSamples(5).build()) {
            Fixtures.randomSamples(new Random(12), 17).forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            Path file = served.resolve(ex.getRequestURI().getPath().substring(1));
            if (!Files.isRegularFile(file)) {
                ex.sendResponseHeaders(404, -1);
                ex.close();
                return;
            }
            byte[] body = Files.readAllBytes(file);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        RemoteTarDataset ds = RemoteTarDataset.builder(base + "/r-{0..3}.tar")
                .cache(ShardCache.in(dir.resolve("cache"), 1L << 30)).build();
        return new Opened<>(ds, () -> {
            ds.close();
            server.stop(0);
        });
    }

    @Override
    protected Object content(TarSample s) {
        return TarContent.of(s);
    }
}
