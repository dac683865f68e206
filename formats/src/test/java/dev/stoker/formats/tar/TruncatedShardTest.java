package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.remote.ShardCache;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.mmap.MappedFileChangedError;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapped shard cut short mid-epoch (another process truncated it) fails the reads past its new
 * end with an error naming the file and saying it changed, in every reader path that maps:
 * streamed local shards, their tensors, samples' bytes, and a remote shard's cached copy (which is
 * then fetched again). Never the JVM's nameless InternalError.
 */
class TruncatedShardTest {
    private static final int SAMPLES = 40;
    private static final int BYTES = 8192; // two pages per member: the end of the shard is well past a cut at 16 KiB

    @TempDir
    Path dir;

    /** A shard of SAMPLES samples, each a raw f32 member of BYTES bytes and a .cls. */
    private Path shard(String name) throws IOException {
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        for (int i = 0; i < SAMPLES; i++) {
            member(tar, String.format("s%03d.x", i), new byte[BYTES]);
            member(tar, String.format("s%03d.cls", i), Integer.toString(i).getBytes(StandardCharsets.US_ASCII));
        }
        tar.write(new byte[1024]);
        return Files.write(dir.resolve(name), tar.toByteArray());
    }

    private static void member(ByteArrayOutputStream tar, String name, byte[] data) throws IOException {
        tar.write(TarHeaderWriter.headers(name, data.length));
        tar.write(data);
        tar.write(new byte[(TarHeader.BLOCK - data.length % TarHeader.BLOCK) % TarHeader.BLOCK]);
    }

    private static void cut(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(16384);
        }
    }

    private static MappedFileChangedError named(Throwable t) {
        Throwable c = t;
        while (c != null && !(c instanceof MappedFileChangedError)) {
            c = c.getCause();
        }
        assertThat(c).as("a MappedFileChangedError in %s", t).isNotNull();
        return (MappedFileChangedError) c;
    }

    @Test
    void aStreamedLocalShardCutShortNamesItsFile() throws IOException {
        Path shard = shard("local.tar");
        TarShardDataset ds = TarShardDataset.builder(List.of(shard.toString())).build();
        List<TarSample> early = new ArrayList<>();
        Throwable failure = null;
        try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 1))) {
            for (int i = 0; i < 3; i++) {
                early.add(s.next());
            }
            cut(shard);
            while (s.hasNext()) {
                s.next();
            }
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        MappedFileChangedError e = named(failure);
        assertThat(e.file()).isEqualTo(shard);
        assertThat(e.mappedSize()).isGreaterThan(16384);
        assertThat(e.currentSize()).isEqualTo(16384);
        assertThat(e.getMessage()).startsWith(shard + " changed while it was memory-mapped")
                .contains("is now 16384 bytes: it was truncated").contains("member header near byte");
        // a sample read before the cut whose bytes lay past it: its bytes name the file too
        TarSample late = early.get(2);
        assertThatThrownBy(() -> late.bytes("x"))
                .isInstanceOf(MappedFileChangedError.class)
                .hasMessageContaining(shard.toString())
                .hasMessageContaining("member .x of sample \"s002\"");
    }

    @Test
    void aTensorStreamOverACutShardNamesItsFileAtTheBatch() throws IOException {
        Path shard = shard("tensors.tar");
        TarShardDataset source = TarShardDataset.builder(List.of(shard.toString())).build();
        TarTensorStream ds = TarTensorStream.builder(source).raw("x", "x", DType.F32, Shape.of(BYTES / 4))
                .integer("y", "cls").build();
        int batches = 0;
        Throwable failure = null;
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(4).build()) {
            for (Batch b : loader) {
                try (b) {
                    if (++batches == 1) {
                        cut(shard);
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        assertThat(batches).isGreaterThanOrEqualTo(1).isLessThan(SAMPLES / 4);
        assertThat(named(failure).file()).isEqualTo(shard);
        // the JVM is fine: the same reader over a whole shard reads every batch
        Path whole = shard("whole.tar");
        int read = 0;
        try (DataLoader<TarSample> loader = DataLoader.builder(TarTensorStream.builder(
                TarShardDataset.builder(List.of(whole.toString())).build()).raw("x", "x", DType.F32,
                Shape.of(BYTES / 4)).build()).batchSize(4).build()) {
            for (Batch b : loader) {
                b.close();
                read++;
            }
        }
        assertThat(read).isEqualTo(SAMPLES / 4);
    }

    @Test
    void aRemoteShardsCachedCopyCutShortIsNamedDroppedAndFetchedAgain() throws IOException {
        Path shard = shard("remote.tar");
        ShardIndex.scan(shard).write(ShardIndex.sidecar(shard));
        byte[] body = Files.readAllBytes(shard);
        byte[] idx = Files.readAllBytes(ShardIndex.sidecar(shard));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] b = ex.getRequestURI().getPath().endsWith(".idx") ? idx : body;
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/remote.tar";
            ShardCache cache = ShardCache.in(dir.resolve("cache"));
            try (RemoteTarDataset ds = RemoteTarDataset.builder(url).cache(cache).build()) {
                assertThat(ds.get(0).string("cls")).isEqualTo("0");
                Path copy = cache.fileFor(url);
                cut(copy);
                assertThatThrownBy(() -> ds.get(SAMPLES - 1))
                        .isInstanceOf(MappedFileChangedError.class)
                        .hasMessageStartingWith(copy + " changed while it was memory-mapped")
                        .hasMessageContaining("sample " + (SAMPLES - 1))
                        .hasMessageContaining(url);
                assertThat(copy).doesNotExist();
                assertThat(ds.get(SAMPLES - 1).string("cls")).as("fetched again").isEqualTo(Integer.toString(SAMPLES - 1));
            }
        } finally {
            server.stop(0);
        }
    }

    /**
     * Once the JIT has compiled the copy, the JVM delivers the fault of a read past the cut
     * asynchronously, at the thread's next safepoint poll, which may come after the method
     * returned: the {@code catch (InternalError)} that names the file saw nothing and the caller
     * got the nameless InternalError (seen when the contract suites made {@code TarSample.bytes}
     * hot). Every mapped reader's catch now ends its {@code try} with
     * {@link dev.stoker.formats.mmap.MapFaults#deliverPending()}, which makes the poll happen there.
     */
    @Test
    void aHotReadOfAShardCutShortIsNamed() throws IOException {
        Path shard = shard("hot.tar");
        TarShardDataset ds = TarShardDataset.builder(List.of(shard.toString())).build();
        List<TarSample> samples = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 1))) {
            while (s.hasNext()) {
                samples.add(s.next());
            }
        }
        for (int round = 0; round < 2000; round++) { // compiled by C2 long before the end
            for (TarSample sample : samples) {
                sample.bytes("x");
            }
        }
        cut(shard);
        TarSample late = samples.getLast();
        assertThatThrownBy(() -> late.bytes("x")).isInstanceOf(MappedFileChangedError.class)
                .hasMessageStartingWith(shard + " changed while it was memory-mapped")
                .hasMessageContaining("member .x of sample \"s039\"");
    }
}
