package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.tar.IndexedTarDataset.MissingIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexedTarDatasetTest {
    @TempDir
    Path dir;

    private List<Fixtures.Sample> samples;

    private List<String> shards(boolean withIndex) {
        samples = Fixtures.randomSamples(new Random(5), 57);
        List<String> names = new ArrayList<>();
        ShardWriter w = ShardWriter.builder(dir.resolve("d-%03d.tar").toString())
                .maxSamples(10).writeIndex(withIndex).build();
        try (w) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
        w.shards().forEach(s -> names.add(s.path().toString()));
        return names;
    }

    @Test
    void globalIndicesReachEverySampleInOrder() {
        try (IndexedTarDataset ds = IndexedTarDataset.open(shards(true), MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(57);
            assertThat(ds.shardCount()).isEqualTo(6);
            for (int i = 0; i < 57; i++) {
                assertThat(samples.get(i).sameAs(ds.get(i))).as("sample %d", i).isTrue();
            }
            assertThat(ds.get(13).url()).endsWith("d-001.tar");
            assertThat(ds.get(0).segment(ds.get(0).extensions().iterator().next()).isNative()).isTrue();
            assertThatThrownBy(() -> ds.get(57)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ds.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void missingIndicesAreBuiltOrRefusedAsAsked() {
        List<String> names = shards(false);
        assertThatThrownBy(() -> IndexedTarDataset.open(names, MissingIndex.FAIL))
                .hasMessageContaining("has no index").hasMessageContaining("stoker index");
        try (IndexedTarDataset ds = IndexedTarDataset.open(names, MissingIndex.BUILD)) {
            assertThat(ds.size()).isEqualTo(57);
        }
        assertThat(ShardIndex.sidecar(Path.of(names.getFirst()))).doesNotExist();
        try (IndexedTarDataset ds = IndexedTarDataset.open(names, MissingIndex.BUILD_AND_SAVE)) {
            assertThat(ds.size()).isEqualTo(57);
        }
        assertThat(ShardIndex.sidecar(Path.of(names.getFirst()))).exists();
    }

    @Test
    void aCorruptSidecarIsAnErrorNotAGuess() throws Exception {
        List<String> names = shards(true);
        Path idx = ShardIndex.sidecar(Path.of(names.get(2)));
        byte[] b = Files.readAllBytes(idx);
        b[b.length / 2] ^= 0x55;
        Files.write(idx, b);
        assertThatThrownBy(() -> IndexedTarDataset.open(names, MissingIndex.BUILD))
                .isInstanceOf(IndexFormatException.class).hasMessageContaining("d-002.tar.idx");
    }

    @Test
    void concurrentReadersSeeTheSameSamples() throws Exception {
        try (IndexedTarDataset ds = IndexedTarDataset.open(shards(true), MissingIndex.FAIL);
             ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    Random rnd = new Random(seed);
                    for (int k = 0; k < 500; k++) {
                        int i = rnd.nextInt(57);
                        if (!samples.get(i).sameAs(ds.get(i))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
        }
    }

    @Test
    void emptyShardsAreSkippedByGlobalIndices() {
        List<String> names = new ArrayList<>(shards(true));
        Path empty = dir.resolve("empty.tar");
        try (ShardWriter w = ShardWriter.builder(dir.resolve("e-%d.tar").toString()).build()) {
            w.write("only", java.util.Map.of("txt", new byte[1]));
            w.commit();
        }
        names.add(1, dir.resolve("e-0.tar").toString());
        try {
            Files.write(empty, new byte[10240]);
            names.add(3, empty.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try (IndexedTarDataset ds = IndexedTarDataset.open(names, MissingIndex.BUILD)) {
            assertThat(ds.size()).isEqualTo(58);
            assertThat(ds.get(10).key()).isEqualTo("only");
            assertThat(samples.get(10).sameAs(ds.get(11))).isTrue();
            assertThat(samples.get(20).sameAs(ds.get(21))).isTrue();
        }
    }
}
