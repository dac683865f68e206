package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardIndexTest {
    @TempDir
    Path dir;

    private Path shardWithIndex(int seed, int n) {
        List<Fixtures.Sample> samples = Fixtures.randomSamples(new Random(seed), n);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("i" + seed + "-%d.tar").toString()).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        return dir.resolve("i" + seed + "-0.tar");
    }

    @Test
    void aWrittenIndexReadsBackTheSame() throws Exception {
        Path shard = shardWithIndex(1, 30);
        ShardIndex scanned = ShardIndex.scan(shard);
        Path copy = dir.resolve("copy.idx");
        scanned.write(copy);
        ShardIndex read = ShardIndex.read(copy, Files.size(shard));
        assertThat(read.sampleCount()).isEqualTo(30);
        assertThat(read.memberCount()).isEqualTo(scanned.memberCount());
        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(ShardIndex.sidecar(shard)));
    }

    @Test
    void theIndexOfPythonsTarFindsItsSamples() {
        ShardIndex idx = ShardIndex.scan(Fixtures.tar("ustar.tar"));
        assertThat(idx.sampleCount()).isEqualTo(3);
        assertThat(idx.key(1)).isEqualTo("000001");
        assertThat(idx.extensions(1)).containsExactly("jpg", "cls", "json");
        assertThat(idx.sampleBytes(2)).isEqualTo(1); // an empty .txt and a one-byte .cls
    }

    @Test
    void aStaleIndexIsRefused() throws Exception {
        Path shard = shardWithIndex(2, 5);
        assertThatThrownBy(() -> ShardIndex.read(ShardIndex.sidecar(shard), Files.size(shard) + 512))
                .isInstanceOf(IndexFormatException.class).hasMessageContaining("stale");
    }

    @Test
    void everyCorruptionOrTruncationIsRejected() throws Exception {
        Path shard = shardWithIndex(3, 20);
        byte[] good = Files.readAllBytes(ShardIndex.sidecar(shard));
        Path bad = dir.resolve("bad.idx");
        Random rnd = new Random(3);
        for (int trial = 0; trial < 2000; trial++) {
            byte[] b;
            if (trial % 3 == 0) {
                b = Arrays.copyOf(good, rnd.nextInt(good.length));
            } else {
                b = good.clone();
                int flips = 1 + rnd.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    b[rnd.nextInt(b.length)] ^= (byte) (1 + rnd.nextInt(255));
                }
            }
            Files.write(bad, b);
            assertThatThrownBy(() -> ShardIndex.read(bad)).as("trial %d", trial)
                    .isInstanceOf(IndexFormatException.class).hasMessageContaining("bad.idx");
        }
    }

    @Test
    void messagesSayWhatIsWrong() throws Exception {
        Path bad = dir.resolve("x.idx");
        Files.write(bad, "not an index at all, just some text here".getBytes());
        assertThatThrownBy(() -> ShardIndex.read(bad)).hasMessageContaining("not a Stoker shard index");
        byte[] good = Files.readAllBytes(ShardIndex.sidecar(shardWithIndex(4, 3)));
        good[8] = 9;
        Files.write(bad, good);
        assertThatThrownBy(() -> ShardIndex.read(bad)).hasMessageContaining("version 9");
        good[8] = 1;
        good[50] ^= 1;
        Files.write(bad, good);
        assertThatThrownBy(() -> ShardIndex.read(bad)).hasMessageContaining("checksum");
    }

    /** Ranks that build the same missing index at once (BUILD_AND_SAVE) each publish it whole. */
    @Test
    void writersOfOneIndexAtOnceEachPublishItWhole() throws Exception {
        Path shard = shardWithIndex(41, 30);
        ShardIndex idx = ShardIndex.scan(shard);
        Path sidecar = ShardIndex.sidecar(shard);
        for (int round = 0; round < 10; round++) {
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            try (var pool = java.util.concurrent.Executors.newFixedThreadPool(6)) {
                for (int t = 0; t < 6; t++) {
                    done.add(pool.submit(() -> idx.write(sidecar)));
                }
                for (var f : done) {
                    f.get();
                }
            }
            assertThat(ShardIndex.read(sidecar, Files.size(shard)).sampleCount()).isEqualTo(idx.sampleCount());
        }
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("tmp"));
        }
    }
}
