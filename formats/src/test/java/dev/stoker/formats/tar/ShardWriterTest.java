package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardWriterTest {
    @TempDir
    Path dir;

    private List<Path> write(List<Fixtures.Sample> samples, long maxSamples, long maxBytes) {
        ShardWriter w = ShardWriter.builder(dir.resolve("s-%04d.tar").toString())
                .maxSamples(maxSamples).maxBytes(maxBytes).overwrite(true).build();
        try (w) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        return w.shards().stream().map(ShardWriter.ShardInfo::path).toList();
    }

    @Test
    void randomSampleSetsRoundTrip() {
        for (int seed = 0; seed < 40; seed++) {
            Random rnd = new Random(seed);
            List<Fixtures.Sample> samples = Fixtures.randomSamples(rnd, 1 + rnd.nextInt(60));
            long maxSamples = 1 + rnd.nextInt(20);
            long maxBytes = rnd.nextBoolean() ? Long.MAX_VALUE : 2048 + rnd.nextInt(40_000);
            List<Path> shards = write(samples, maxSamples, maxBytes);

            List<Fixtures.Sample> back = Fixtures.readAll(shards);
            assertThat(back).as("seed %d", seed).hasSameSizeAs(samples);
            for (int i = 0; i < samples.size(); i++) {
                assertThat(samples.get(i).key()).isEqualTo(back.get(i).key());
                assertThat(back.get(i).fields().keySet()).containsExactlyElementsOf(samples.get(i).fields().keySet());
                for (String ext : samples.get(i).fields().keySet()) {
                    assertThat(back.get(i).fields().get(ext)).isEqualTo(samples.get(i).fields().get(ext));
                }
            }
            for (Path shard : shards) {
                ShardIndex idx = ShardIndex.read(ShardIndex.sidecar(shard), size(shard));
                ShardIndex scanned = ShardIndex.scan(shard);
                assertThat(idx.sampleCount()).isEqualTo(scanned.sampleCount()).isLessThanOrEqualTo((int) maxSamples);
                for (int i = 0; i < idx.sampleCount(); i++) {
                    assertThat(idx.key(i)).isEqualTo(scanned.key(i));
                    assertThat(idx.extensions(i)).isEqualTo(scanned.extensions(i));
                    assertThat(idx.sampleBytes(i)).isEqualTo(scanned.sampleBytes(i));
                }
                assertThat(size(shard) % ShardWriter.RECORD).isZero();
            }
        }
    }

    @Test
    void rollsOverBySamplesAndBytes() {
        List<Fixtures.Sample> samples = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            samples.add(new Fixtures.Sample(String.format("%03d", i), Map.of("bin", new byte[1000])));
        }
        assertThat(write(samples, 4, Long.MAX_VALUE)).hasSize(3);
        for (Path p : List.of(dir.resolve("s-0000.tar"), dir.resolve("s-0001.tar"), dir.resolve("s-0002.tar"))) {
            assertThat(p).exists();
        }
        // 5000-byte samples take 512 + 5120 bytes; a 20480-byte shard (two records) holds three
        List<Fixtures.Sample> big = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            big.add(new Fixtures.Sample(String.format("%03d", i), Map.of("bin", new byte[5000])));
        }
        List<Path> byBytes = write(big, 100, 20480);
        assertThat(byBytes).hasSize(4);
        assertThat(byBytes).allSatisfy(p -> assertThat(size(p)).isLessThanOrEqualTo(20480));
        assertThat(dir).isDirectoryNotContaining("glob:**.part");
    }

    @Test
    void aSampleLargerThanMaxBytesGetsAShardOfItsOwn() {
        List<Fixtures.Sample> samples = List.of(
                new Fixtures.Sample("a", Map.of("bin", new byte[10])),
                new Fixtures.Sample("b", Map.of("bin", new byte[100_000])),
                new Fixtures.Sample("c", Map.of("bin", new byte[10])));
        assertThat(write(samples, 100, 20_000)).hasSize(3);
    }

    @Test
    void badNamesAreRefusedWithReasons() {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("x-%d.tar").toString()).build()) {
            assertThatThrownBy(() -> w.write("a.b", Map.of("jpg", new byte[1]))).hasMessageContaining("no dot");
            assertThatThrownBy(() -> w.write("a", Map.of())).hasMessageContaining("no fields");
            assertThatThrownBy(() -> w.write("a", Map.of("", new byte[1]))).hasMessageContaining("not an extension");
            w.commit();
        }
        assertThatThrownBy(() -> ShardWriter.builder("same.tar")).hasMessageContaining("same name");
    }

    @Test
    void longAndNonAsciiNamesGoThroughPax() {
        String key = "deep/" + "p".repeat(150) + "/" + "k".repeat(120) + "\u00e9";
        try (ShardWriter w = ShardWriter.builder(dir.resolve("p-%d.tar").toString()).build()) {
            w.write(key, Map.of("txt", "hi".getBytes(StandardCharsets.UTF_8)));
            w.commit();
        }
        List<Fixtures.Sample> back = Fixtures.readAll(List.of(dir.resolve("p-0.tar")));
        assertThat(back).singleElement().satisfies(s -> assertThat(s.key()).isEqualTo(key));
    }

    @Test
    void pythonTarfileReadsOurShards() throws Exception {
        Assumptions.assumeTrue(hasPython(), "python3 is not installed");
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("jpg", new byte[] {1, 2, 3});
        fields.put("cls", "7".getBytes(StandardCharsets.US_ASCII));
        String longKey = "d/" + "x".repeat(130);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("py-%d.tar").toString()).build()) {
            w.write("000000", fields);
            w.write(longKey, Map.of("txt", new byte[700]));
            w.commit();
        }
        String script = "import tarfile,sys\n"
                + "with tarfile.open(sys.argv[1]) as t:\n"
                + "  for m in t.getmembers():\n"
                + "    print(m.name, m.size, oct(m.mode), m.mtime, len(t.extractfile(m).read()))\n";
        Process p = new ProcessBuilder("python3", "-c", script, dir.resolve("py-0.tar").toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines().toList()).containsExactly(
                "000000.jpg 3 0o644 0 3",
                "000000.cls 1 0o644 0 1",
                longKey + ".txt 700 0o644 0 700");
    }

    @Test
    void gnuTarListsOurShards() throws Exception {
        Assumptions.assumeTrue(new java.io.File("/usr/bin/tar").canExecute() || new java.io.File("/bin/tar").canExecute());
        try (ShardWriter w = ShardWriter.builder(dir.resolve("g-%d.tar").toString()).build()) {
            w.write("000000", Map.of("cls", "7".getBytes(StandardCharsets.US_ASCII)));
            w.commit();
        }
        Process p = new ProcessBuilder("tar", "tf", dir.resolve("g-0.tar").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.strip()).isEqualTo("000000.cls");
    }

    static boolean hasPython() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import tarfile").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
