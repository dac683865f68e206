package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.remote.ShardCache;
import com.sun.net.httpserver.HttpServer;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.tar.IndexedTarDataset.MissingIndex;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Member extensions are lower-cased into field names, as WebDataset's {@code group_by_keys} does,
 * in every reader path; the key keeps its case. The shards are written by Python's tarfile, and
 * {@code upper.expected} holds the key and field Python gives each member
 * (src/test/python/make_tar_fixtures.py).
 */
class ExtensionCaseTest {
    @TempDir
    Path dir;

    /** Key to fields, in shard order, as Python names them. */
    private static Map<String, List<String>> expected() throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Fixtures.tar("upper.expected"), StandardCharsets.UTF_8)) {
            String[] kv = line.split(" ", 2);
            out.computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
        }
        return out;
    }

    private static Map<String, List<String>> fieldsOf(List<TarSample> samples) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (TarSample s : samples) {
            out.put(s.key(), List.copyOf(s.extensions()));
        }
        return out;
    }

    private Path copy(String fixture) throws IOException {
        return Files.copy(Fixtures.tar(fixture), dir.resolve(fixture));
    }

    @Test
    void sampleKeysLowerCasesTheFieldAsPythonDoesAndKeepsTheKey() {
        assertThat(SampleKeys.field("K4.JPG")).isEqualTo("jpg");
        assertThat(SampleKeys.key("K4.JPG")).isEqualTo("K4");
        assertThat(SampleKeys.field("Dir/K3.Seg.PNG")).isEqualTo("seg.png");
        assertThat(SampleKeys.extension("K4.JPG")).isEqualTo("JPG");
        assertThat(SampleKeys.field("x.\u00c9T\u00c9")).isEqualTo("\u00e9t\u00e9");
        assertThat(SampleKeys.field("x.I")).as("never the Turkish dotless i").isEqualTo("i");
        assertThat(SampleKeys.field("noext")).isNull();
        String lower = "jpg";
        assertThat(SampleKeys.fieldOf(lower)).as("no copy when already lower case").isSameAs(lower);
    }

    /**
     * Seeded random member names (upper, lower and non-ASCII letters, dots, slashes): key and field
     * are WebDataset's {@code base_plus_ext} regex and {@code suffix.lower()}. Names whose path
     * has an empty element or one starting with a dot are left out (the regex then lets a key end in
     * '/', where Stoker skips the member), and a name ending in a dot (WebDataset's empty field) is
     * skipped by Stoker on purpose.
     */
    @Test
    void keyAndFieldFollowWebDatasetsRuleForRandomNames() {
        Pattern basePlusExt = Pattern.compile("^((?:.*/|)[^.]+)[.]([^/]*)$");
        String alphabet = "aZ.\u00c9\u00e9\u0130/Kx1\u03a3";
        Random rnd = new Random(11);
        for (int c = 0; c < 20_000; c++) {
            StringBuilder b = new StringBuilder();
            for (int k = 1 + rnd.nextInt(12); k > 0; k--) {
                b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            String name = b.toString();
            if (name.startsWith(".") || name.startsWith("/") || name.contains("//") || name.contains("/.")) {
                continue;
            }
            Matcher m = basePlusExt.matcher(name);
            if (!m.matches() || m.group(2).isEmpty()) {
                assertThat(SampleKeys.field(name)).as(name).isNull();
                continue;
            }
            assertThat(SampleKeys.key(name)).as(name).isEqualTo(m.group(1));
            assertThat(SampleKeys.field(name)).as(name).isEqualTo(m.group(2).toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void theMappedReaderNamesFieldsLowerCase() throws IOException {
        List<TarSample> samples = new ArrayList<>();
        try (Arena arena = Arena.ofConfined(); TarReader r = TarReader.open(Fixtures.tar("upper.tar"), arena)) {
            SampleGrouper g = new SampleGrouper(r);
            while (g.hasNext()) {
                samples.add(TarSample.of(g.next(), "upper.tar"));
            }
            assertThat(fieldsOf(samples)).isEqualTo(expected());
            assertThat(samples.get(0).string("jpg")).isEqualTo("jpeg-1");
        }
    }

    @Test
    void theStreamingDatasetNamesFieldsLowerCase() throws IOException {
        TarShardDataset ds = TarShardDataset.builder(List.of(Fixtures.tar("upper.tar").toString())).build();
        List<TarSample> samples = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 1))) {
            s.forEachRemaining(samples::add);
        }
        assertThat(fieldsOf(samples)).isEqualTo(expected());
    }

    @Test
    void theIndexedDatasetAndItsSidecarNameFieldsLowerCase() throws IOException {
        Path shard = copy("upper.tar");
        try (IndexedTarDataset ds = IndexedTarDataset.open(List.of(shard.toString()), MissingIndex.BUILD_AND_SAVE)) {
            assertThat(fieldsOf(all(ds))).isEqualTo(expected());
            assertThat(ds.index(0).extensions(0)).containsExactly("jpg", "cls");
        }
        assertThat(ShardIndex.sidecar(shard)).exists();
        // read again from the sidecar written above: the members' headers still check out
        try (IndexedTarDataset ds = IndexedTarDataset.open(List.of(shard.toString()), MissingIndex.FAIL)) {
            assertThat(fieldsOf(all(ds))).isEqualTo(expected());
            assertThat(ds.get(3).string("cls")).isEqualTo("4");
        }
    }

    private static List<TarSample> all(IndexedTarDataset ds) {
        List<TarSample> out = new ArrayList<>();
        for (long i = 0; i < ds.size(); i++) {
            out.add(ds.get(i));
        }
        return out;
    }

    @Test
    void remoteAndCachedShardsNameFieldsLowerCase() throws IOException {
        Path shard = copy("upper.tar");
        ShardIndex.scan(shard).write(ShardIndex.sidecar(shard));
        Map<String, byte[]> served = Map.of("/upper.tar", Files.readAllBytes(shard),
                "/upper.tar.idx", Files.readAllBytes(ShardIndex.sidecar(shard)));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] body = served.get(ex.getRequestURI().getPath());
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
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/upper.tar";
            try (RemoteTarDataset ds = RemoteTarDataset.builder(url).cache(ShardCache.in(dir.resolve("c1"))).build()) {
                List<TarSample> samples = new ArrayList<>();
                for (long i = 0; i < ds.size(); i++) {
                    samples.add(ds.get(i));
                }
                assertThat(fieldsOf(samples)).isEqualTo(expected());
            }
            TarShardDataset streamed = TarShardDataset.builder(url).cache(ShardCache.in(dir.resolve("c2"))).build();
            for (int run = 0; run < 2; run++) { // fetched, then read from the cached copy
                List<TarSample> samples = new ArrayList<>();
                try (SampleStream<TarSample> s = streamed.open(new WorkerContext(0, 1, 0, 1, 0, 1))) {
                    s.forEachRemaining(samples::add);
                }
                assertThat(fieldsOf(samples)).as("run %d", run).isEqualTo(expected());
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void tensorStreamsAskForTheLowerCaseField() {
        TarShardDataset source = TarShardDataset.builder(List.of(Fixtures.tar("upper.tar").toString())).build();
        TarTensorStream ds = TarTensorStream.builder(source).integer("label", "cls", DType.I32).tuple().build();
        List<Integer> labels = new ArrayList<>();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(4).build()) {
            for (Batch b : loader) {
                try (b) {
                    for (int v : b.tensor(0).toIntArray()) {
                        labels.add(v);
                    }
                }
            }
        }
        assertThat(labels).containsExactly(1, 2, 3, 4);
        assertThatThrownBy(() -> TarTensorStream.builder(source).integer("label", "CLS").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"CLS\" would match no member")
                .hasMessageContaining("ask for \"cls\"");
    }

    @Test
    void twoMembersThatDifferOnlyInCaseAreOneFieldTwiceInEveryPath() throws IOException {
        Path shard = copy("upper_duplicate.tar");
        assertThatThrownBy(() -> ShardIndex.scan(shard))
                .isInstanceOf(TarException.class)
                .hasMessageContaining("two members for field \"jpg\"")
                .hasMessageContaining("K5.JPG").hasMessageContaining("K5.jpg");
        TarShardDataset ds = TarShardDataset.builder(List.of(shard.toString())).build();
        assertThatThrownBy(() -> {
            try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 1))) {
                s.forEachRemaining(x -> { });
            }
        }).hasMessageContaining("two members for field \"jpg\"");
        // an index (forged, or written before fields were lower-cased) that names both is refused
        ShardIndex.Builder b = new ShardIndex.Builder();
        b.sample("K5");
        b.member("JPG", 512, 1);
        b.member("jpg", 1536, 1);
        Path idx = dir.resolve("forged.idx");
        b.build(Files.size(shard)).write(idx);
        assertThatThrownBy(() -> ShardIndex.read(idx))
                .isInstanceOf(IndexFormatException.class)
                .hasMessageContaining("sample \"K5\" has two members for field \"jpg\"");
    }
}
