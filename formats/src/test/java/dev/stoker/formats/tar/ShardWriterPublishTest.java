package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A set of shards is published whole, by {@link ShardWriter#commit()}, or not at all. */
class ShardWriterPublishTest {
    @TempDir
    Path dir;

    private String pattern() {
        return dir.resolve("shard-%06d.tar").toString();
    }

    private static Map<String, byte[]> fields(int i) {
        return Map.of("txt", ("sample " + i).getBytes(StandardCharsets.UTF_8), "cls",
                Integer.toString(i % 7).getBytes(StandardCharsets.US_ASCII));
    }

    private List<ShardWriter.ShardInfo> pack(int samples, int perShard, boolean overwrite) {
        ShardWriter w = ShardWriter.builder(pattern()).maxSamples(perShard).overwrite(overwrite).build();
        try (w) {
            for (int i = 0; i < samples; i++) {
                w.write(String.format("%06d", i), fields(i));
            }
            w.commit();
        }
        return w.shards();
    }

    private TreeSet<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
        }
    }

    private List<String> keysOf(List<ShardWriter.ShardInfo> shards) {
        List<String> keys = new ArrayList<>();
        try (IndexedTarDataset ds = IndexedTarDataset.open(shards.stream().map(s -> s.path().toString()).toList(),
                IndexedTarDataset.MissingIndex.FAIL)) {
            for (long i = 0; i < ds.size(); i++) {
                keys.add(ds.get(i).key());
            }
        }
        return keys;
    }

    @Test
    void aSampleFailingInsideTryWithResourcesPublishesNothing() throws IOException {
        assertThatThrownBy(() -> {
            try (ShardWriter w = ShardWriter.builder(pattern()).maxSamples(50).build()) {
                for (int i = 0; i < 200; i++) {
                    if (i == 150) {
                        throw new IOException("cannot read input 150");
                    }
                    w.write(String.format("%06d", i), fields(i));
                }
                w.commit();
            }
        }).hasMessageContaining("input 150");
        assertThat(files()).isEmpty();
    }

    @Test
    void aCommittedSetHasItsManifestAndReadsAsComplete() throws IOException {
        List<ShardWriter.ShardInfo> shards = pack(120, 50, false);
        assertThat(files()).containsExactly("shard-000000.tar", "shard-000000.tar.idx", "shard-000001.tar",
                "shard-000001.tar.idx", "shard-000002.tar", "shard-000002.tar.idx", "shard.stoker-manifest");
        ShardSetManifest m = ShardSetManifest.read(dir.resolve("shard.stoker-manifest"));
        assertThat(m.complete()).isTrue();
        assertThat(m.samples()).isEqualTo(120);
        assertThat(m.shards()).extracting(ShardSetManifest.Shard::samples).containsExactly(50L, 50L, 20L);
        assertThat(ShardSets.status(shards.get(1).path())).isInstanceOf(ShardSets.Status.Complete.class);
        assertThat(ShardSets.statusOfSet(dir.resolve("shard.stoker-manifest")))
                .isInstanceOf(ShardSets.Status.Complete.class);
        assertThat(keysOf(shards)).hasSize(120);
    }

    @Test
    void packingAgainWithFewerInputsIsRefusedAndOverwriteLeavesExactlyTheNewSet() throws IOException {
        pack(800, 50, false); // 16 shards
        Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.writeString(dir.resolve("shard-7.tar"), "not a name the pattern writes");
        TreeSet<String> before = files();
        assertThatThrownBy(() -> pack(400, 50, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already holds a set of shards shard-%06d.tar")
                .hasMessageContaining("shard-000000.tar").hasMessageContaining("overwrite");
        assertThat(files()).isEqualTo(before);

        List<ShardWriter.ShardInfo> shards = pack(400, 50, true); // 8 shards
        TreeSet<String> expected = new TreeSet<>(List.of("notes.txt", "shard-7.tar", "shard.stoker-manifest"));
        for (int s = 0; s < 8; s++) {
            expected.add(String.format("shard-%06d.tar", s));
            expected.add(String.format("shard-%06d.tar.idx", s));
        }
        assertThat(files()).isEqualTo(expected);
        assertThat(keysOf(shards)).hasSize(400).doesNotHaveDuplicates();
        // a shard of the old set put back by hand is not part of the new one
        Files.copy(dir.resolve("shard-000000.tar"), dir.resolve("shard-000009.tar"));
        assertThatThrownBy(() -> TarShardDataset.builder(dir.resolve("shard-{000000..000009}.tar").toString())
                .build()).isInstanceOf(ShardSetException.class)
                .hasMessageContaining("shard-000009.tar is not part of the set");
    }

    @Test
    void anOverwriteWithoutIndexRemovesTheOldSidecars() throws IOException {
        pack(100, 50, false);
        try (ShardWriter w = ShardWriter.builder(pattern()).maxSamples(50).writeIndex(false).overwrite(true).build()) {
            w.write("a", fields(1));
            w.commit();
        }
        assertThat(files()).containsExactly("shard-000000.tar", "shard.stoker-manifest");
    }

    @Test
    void aFailedOverwriteLeavesTheOldSetWholeAndReadable() throws IOException {
        List<ShardWriter.ShardInfo> old = pack(300, 50, false);
        TreeSet<String> before = files();
        assertThatThrownBy(() -> {
            try (ShardWriter w = ShardWriter.builder(pattern()).maxSamples(20).overwrite(true).build()) {
                for (int i = 0; i < 100; i++) {
                    w.write("new" + i, fields(i));
                }
                throw new IllegalStateException("the job was cancelled");
            }
        }).hasMessageContaining("cancelled");
        assertThat(files()).isEqualTo(before);
        assertThat(keysOf(old)).hasSize(300);
    }

    @Test
    void anAbandonedWriterLeavesNothingThatReadsAsWhole() throws IOException {
        List<ShardWriter.ShardInfo> old = pack(100, 50, false);
        ShardWriter w = ShardWriter.builder(pattern()).maxSamples(10).overwrite(true).build();
        for (int i = 0; i < 35; i++) {
            w.write("k" + i, fields(i)); // never committed nor closed: a process that died here
        }
        assertThat(files()).contains("shard.stoker-manifest.part", "shard-000000.tar.part");
        assertThatThrownBy(() -> keysOf(old)).isInstanceOf(ShardSetException.class)
                .hasMessageContaining("shard.stoker-manifest.part").hasMessageContaining("killed");
        assertThat(ShardSets.status(old.getFirst().path())).isInstanceOf(ShardSets.Status.Incomplete.class);
        assertThatThrownBy(() -> pack(10, 5, false)).hasMessageContaining("in progress");
        pack(10, 5, true); // taking over the killed writer's mark
        assertThat(files()).containsExactly("shard-000000.tar", "shard-000000.tar.idx", "shard-000001.tar",
                "shard-000001.tar.idx", "shard.stoker-manifest");
    }

    @Test
    void aDamagedManifestIsRefusedByNameAndAWriterNeedsOverwriteToReplaceIt() throws IOException {
        List<ShardWriter.ShardInfo> shards = pack(30, 10, false);
        Files.writeString(dir.resolve("shard.stoker-manifest"), "stoker-shard-set\t1\nstate\tcomplete\nshard\tx");
        assertThatThrownBy(() -> keysOf(shards)).isInstanceOf(ShardSetException.class)
                .hasMessageContaining("shard.stoker-manifest").hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> pack(30, 10, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overwrite");
        assertThat(keysOf(pack(30, 10, true))).hasSize(30);
    }

    @Test
    void anotherPatternWithTheSameManifestNameIsRefused() {
        pack(5, 10, false);
        assertThatThrownBy(() -> ShardWriter.builder(dir.resolve("shard-%06d.tar.gz").toString()).overwrite(true)
                .build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is the manifest of the shards shard-%06d.tar");
    }

    @Test
    void theShardNumberMustBeInTheFileName() {
        assertThatThrownBy(() -> ShardWriter.builder(dir.resolve("part-%d/shard.tar").toString()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in the folder");
    }

    /**
     * Writers failing at random points (a sample that cannot be read, a writer dropped without a
     * close, a close without a commit), over an old set or none: afterwards either the new set is
     * whole and reads back, or what reads is the old set untouched, or readers refuse.
     */
    @Test
    void writersFailingAtRandomPointsPublishWholeOrNothing() throws IOException {
        for (int trial = 0; trial < 60; trial++) {
            Random rnd = new Random(7000 + trial);
            Path folder = Files.createDirectories(dir.resolve("t" + trial));
            String pattern = folder.resolve("p-%03d.tar").toString();
            List<String> oldKeys = List.of();
            if (rnd.nextBoolean()) {
                int n = 1 + rnd.nextInt(40);
                try (ShardWriter w = ShardWriter.builder(pattern).maxSamples(1 + rnd.nextInt(9)).build()) {
                    for (int i = 0; i < n; i++) {
                        w.write("old" + i, fields(i));
                    }
                    w.commit();
                }
                oldKeys = readAll(folder);
                assertThat(oldKeys).hasSize(n);
            }
            int n = 1 + rnd.nextInt(60);
            int failAt = rnd.nextInt(n + 2); // n: after the last write, n + 1: no failure
            int how = rnd.nextInt(3); // 0: exception in the block, 1: abandoned, 2: closed without a commit
            ShardWriter w = ShardWriter.builder(pattern).maxSamples(1 + rnd.nextInt(9))
                    .maxBytes(rnd.nextBoolean() ? Long.MAX_VALUE : 20_000 + rnd.nextInt(20_000))
                    .writeIndex(rnd.nextBoolean()).overwrite(true).build();
            boolean committed = false;
            boolean abandoned = false;
            try {
                for (int i = 0; i < n; i++) {
                    if (i == failAt) {
                        throw new IllegalStateException("fail");
                    }
                    w.write("new" + i, Map.of("bin", new byte[rnd.nextInt(3000)]));
                }
                if (failAt == n) {
                    throw new IllegalStateException("fail");
                }
                w.commit();
                committed = true;
            } catch (IllegalStateException e) {
                abandoned = how == 1;
            } finally {
                if (!abandoned) {
                    w.close();
                }
            }
            String what = "trial " + trial + ": " + n + " samples, fail at " + failAt + ", how " + how;
            if (committed) {
                assertThat(readAll(folder)).as(what).hasSize(n).allMatch(k -> k.startsWith("new"));
            } else if (abandoned) {
                List<String> names = shardNames(folder);
                if (!names.isEmpty()) {
                    assertThatThrownBy(() -> ShardSets.check(names)).as(what).isInstanceOf(ShardSetException.class);
                }
            } else {
                assertThat(readAll(folder)).as(what).isEqualTo(oldKeys);
                try (Stream<Path> s = Files.list(folder)) {
                    assertThat(s.map(p -> p.getFileName().toString())).as(what).noneMatch(f -> f.endsWith(".part"));
                }
            }
        }
    }

    /** The keys of every shard of the folder, in order; checked against the set's manifest first. */
    private static List<String> readAll(Path folder) {
        List<String> names = shardNames(folder);
        if (names.isEmpty()) {
            return List.of();
        }
        ShardSets.check(names);
        return Fixtures.readAll(names.stream().map(Path::of).toList()).stream().map(Fixtures.Sample::key).toList();
    }

    private static List<String> shardNames(Path folder) {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(Path::toString).filter(f -> f.endsWith(".tar")).sorted().toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A writer in a JVM of its own, killed outright mid-set: nothing it leaves reads as whole. */
    @Test
    void aKilledPackLeavesNothingThatReadsAsWhole() throws Exception {
        List<ShardWriter.ShardInfo> old = pack(100, 20, false);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                KilledWriter.class.getName(), pattern()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(line).isEqualTo("two shards finished");
            child.destroyForcibly();
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(files()).contains("shard.stoker-manifest.part", "shard-000001.tar.part");
        assertThatThrownBy(() -> keysOf(old)).isInstanceOf(ShardSetException.class)
                .hasMessageContaining("shard.stoker-manifest.part");
        assertThat(ShardSets.statusOfSet(dir.resolve("shard.stoker-manifest")))
                .isInstanceOf(ShardSets.Status.Incomplete.class);
    }

    /** The child of {@link #aKilledPackLeavesNothingThatReadsAsWhole}: writes until it is killed. */
    static final class KilledWriter {
        public static void main(String[] args) throws Exception {
            ShardWriter w = ShardWriter.builder(args[0]).maxSamples(10).overwrite(true).build();
            for (int i = 0; ; i++) {
                w.write("k" + i, Map.of("bin", new byte[100]));
                if (i == 25) {
                    System.out.println("two shards finished");
                    System.out.flush();
                }
                if (i > 25) {
                    Thread.sleep(10);
                }
            }
        }
    }
}
