package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What LmdbWriter writes, LmdbDataset reads back; and the writes it refuses, by name. */
class LmdbWriterTest {
    @TempDir
    Path dir;

    /** Values of random sizes: empty ones, small ones that share leaf pages, large ones on overflow pages. */
    static List<byte[]> values(Random rnd, int n) {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int size = switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextInt(3);
                case 1 -> rnd.nextInt(200);
                case 2 -> rnd.nextInt(5000);
                default -> 4000 + rnd.nextInt(40_000);
            };
            byte[] v = new byte[size];
            rnd.nextBytes(v);
            values.add(v);
        }
        return values;
    }

    static void assertReadsBack(Path env, List<byte[]> values, int[] labels) {
        try (LmdbDataset ds = LmdbDataset.open(env)) {
            assertThat(ds.size()).isEqualTo(values.size());
            assertThat(ds.environment().entries()).isEqualTo(values.size() + 2);
            for (int i = 0; i < values.size(); i++) {
                LmdbSample s = ds.get(i);
                assertThat(s.key()).isEqualTo(String.format("%06d", i));
                assertThat(s.value()).as("sample %d", i).isEqualTo(values.get(i));
                assertThat(s.label()).as("label %d", i).isEqualTo(labels[i]);
            }
        }
    }

    @Test
    void roundTripInW8LayoutOverManyBatches() {
        for (int seed = 0; seed < 6; seed++) {
            Random rnd = new Random(seed);
            List<byte[]> values = values(rnd, 1 + rnd.nextInt(120));
            int[] labels = rnd.ints(values.size(), 0, 256).toArray();
            Path env = dir.resolve("w8-" + seed);
            try (LmdbWriter w = LmdbWriter.builder(env).commitEvery(1 + rnd.nextInt(20), 1 + rnd.nextInt(100_000)).build()) {
                for (int i = 0; i < values.size(); i++) {
                    w.append(values.get(i), labels[i]);
                }
                assertThat(w.count()).isEqualTo(values.size());
                w.commit();
            }
            assertReadsBack(env, values, labels);
        }
    }

    @Test
    void theValueIsCopiedWhenAppended() {
        Path env = dir.resolve("copy");
        byte[] v = {1, 2, 3};
        try (LmdbWriter w = LmdbWriter.builder(env).build()) {
            w.append(v, 4);
            v[0] = 9; // the caller reuses its array before the batch commits
            w.commit();
        }
        assertReadsBack(env, List.of(new byte[] {1, 2, 3}), new int[] {4});
    }

    @Test
    void emptyEnvironmentHasSizeZero() {
        Path env = dir.resolve("none");
        try (LmdbWriter w = LmdbWriter.builder(env).build()) {
            assertThat(w.count()).isZero();
            w.commit();
        }
        assertReadsBack(env, List.of(), new int[0]);
    }

    @Test
    void theMapGrowsPastItsInitialSize() {
        Random rnd = new Random(11);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            byte[] v = new byte[i == 7 ? 1 << 20 : 50_000 + rnd.nextInt(50_000)]; // one value far larger than the map
            rnd.nextBytes(v);
            values.add(v);
        }
        int[] labels = new int[values.size()];
        Path env = dir.resolve("grow");
        long total = values.stream().mapToLong(v -> v.length).sum();
        try (LmdbWriter w = LmdbWriter.builder(env).mapSize(64 << 10).commitEvery(5, 1 << 20).build()) {
            for (byte[] v : values) {
                w.append(v, 0);
            }
            assertThat(w.resizes()).isPositive();
            assertThat(w.mapSize()).isGreaterThan(total);
            w.commit();
        }
        assertReadsBack(env, values, labels);
    }

    @Test
    void anEstimateFromTheInputAvoidsGrowth() {
        Random rnd = new Random(3);
        List<byte[]> small = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) { // lines of text: they share leaf pages
            byte[] v = new byte[rnd.nextInt(120)];
            rnd.nextBytes(v);
            small.add(v);
        }
        for (List<byte[]> values : List.of(values(rnd, 200), small)) {
            long total = values.stream().mapToLong(v -> v.length).sum();
            int[] labels = new int[values.size()];
            Path env = dir.resolve("estimated-" + values.size());
            try (LmdbWriter w = LmdbWriter.builder(env).expect(values.size(), total).build()) {
                for (byte[] v : values) {
                    w.append(v, 0);
                }
                assertThat(w.resizes()).isZero();
                w.commit();
            }
            assertReadsBack(env, values, labels);
        }
    }

    @Test
    void anExistingEnvironmentIsKeptUnlessOverwriteIsAsked() {
        Path env = dir.resolve("twice");
        try (LmdbWriter w = LmdbWriter.builder(env).build()) {
            w.append(new byte[] {1}, 1);
            w.append(new byte[] {2}, 2);
            w.commit();
        }
        assertThatThrownBy(() -> LmdbWriter.builder(env).build())
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString())
                .hasMessageContaining("already an LMDB environment");
        assertReadsBack(env, List.of(new byte[] {1}, new byte[] {2}), new int[] {1, 2});

        try (LmdbWriter w = LmdbWriter.builder(env).overwrite(true).build()) {
            w.append(new byte[] {3}, 3);
            w.commit();
        }
        assertReadsBack(env, List.of(new byte[] {3}), new int[] {3});
    }

    @Test
    void aSingleFileEnvironmentIsTheDataFileWithItsLockBeside() throws Exception {
        Random rnd = new Random(31);
        List<byte[]> values = values(rnd, 50);
        int[] labels = rnd.ints(values.size(), 0, 256).toArray();
        Path file = dir.resolve("sub").resolve("train.lmdb"); // the folder is made
        try (LmdbWriter w = LmdbWriter.builder(file).singleFile(true).commitEvery(9, 1 << 20).mapSize(64 << 10)
                .build()) {
            for (int i = 0; i < values.size(); i++) {
                w.append(values.get(i), labels[i]);
            }
            assertThat(w.resizes()).isPositive(); // growing the map works for a single file too
            w.commit();
        }
        assertThat(file).isRegularFile();
        try (var list = Files.list(file.getParent())) {
            assertThat(list.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("train.lmdb", "train.lmdb-lock");
        }
        assertReadsBack(file, values, labels);
    }

    @Test
    void aSingleFileEnvironmentReplacesOnlyAnLmdbFileAndOnlyWhenAsked() throws Exception {
        Path file = dir.resolve("one.lmdb");
        try (LmdbWriter w = LmdbWriter.builder(file).singleFile(true).build()) {
            w.append(new byte[] {1}, 1);
            w.commit();
        }
        assertThatThrownBy(() -> LmdbWriter.builder(file).singleFile(true).build())
                .isInstanceOf(LmdbException.class).hasMessageContaining(file.toString())
                .hasMessageContaining("already a file");
        try (LmdbWriter w = LmdbWriter.builder(file).singleFile(true).overwrite(true).build()) {
            w.append(new byte[] {2}, 2);
            w.commit();
        }
        assertReadsBack(file, List.of(new byte[] {2}), new int[] {2});

        Path notes = Files.writeString(dir.resolve("notes.lmdb"), "not lmdb at all, but long enough to look");
        assertThatThrownBy(() -> LmdbWriter.builder(notes).singleFile(true).overwrite(true).build())
                .isInstanceOf(LmdbException.class).hasMessageContaining(notes.toString())
                .hasMessageContaining("not an LMDB data file");
        assertThat(notes).hasContent("not lmdb at all, but long enough to look");
        Path folder = Files.createDirectories(dir.resolve("a-folder"));
        assertThatThrownBy(() -> LmdbWriter.builder(folder).singleFile(true).build())
                .isInstanceOf(LmdbException.class).hasMessageContaining("it is a folder");
    }

    @Test
    void aFileOrAFolderOfOtherFilesIsNeverWrittenOver() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "mine");
        assertThatThrownBy(() -> LmdbWriter.builder(file).overwrite(true).build())
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("is a file");
        Path folder = Files.createDirectories(dir.resolve("photos"));
        Files.writeString(folder.resolve("a.jpg"), "jpeg");
        assertThatThrownBy(() -> LmdbWriter.builder(folder).overwrite(true).build())
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(folder.toString())
                .hasMessageContaining("a.jpg");
        assertThat(folder.resolve("a.jpg")).exists();
        assertThat(file).hasContent("mine");
    }

    @Test
    void layoutsWithoutLabelsAndWithOtherKeys() {
        Path env = dir.resolve("plain");
        LmdbLayout layout = LmdbLayout.pattern("img-%08d").withoutLabels();
        try (LmdbWriter w = LmdbWriter.builder(env).layout(layout).build()) {
            w.append("a".getBytes(StandardCharsets.UTF_8));
            w.append("b".getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(() -> w.append(new byte[1], 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no labels key");
            w.commit();
        }
        try (LmdbDataset ds = LmdbDataset.open(env, layout)) {
            assertThat(ds.size()).isEqualTo(2);
            assertThat(ds.get(1).key()).isEqualTo("img-00000001");
            assertThat(ds.get(1).value()).isEqualTo("b".getBytes(StandardCharsets.UTF_8));
            assertThat(ds.get(1).label()).isEqualTo(-1);
            assertThat(ds.environment().entries()).isEqualTo(3); // no __labels__
        }
    }

    @Test
    void keysPastSixDigitsAreStillFound() {
        // "%06d" stops sorting in index order at 1000000: those keys cannot be appended, and are put.
        Path env = dir.resolve("wide");
        LmdbLayout layout = new LmdbLayout(i -> String.format("%01d", i), -1, "__len__", "__labels__");
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            values.add(new byte[] {(byte) i});
        }
        try (LmdbWriter w = LmdbWriter.builder(env).layout(layout).commitEvery(4, 1 << 20).build()) {
            for (int i = 0; i < 25; i++) {
                w.append(values.get(i), i);
            }
            w.commit();
        }
        try (LmdbDataset ds = LmdbDataset.open(env, layout)) {
            for (int i = 0; i < 25; i++) {
                assertThat(ds.get(i).value()).isEqualTo(values.get(i));
                assertThat(ds.get(i).label()).isEqualTo(i);
            }
        }
    }

    @Test
    void labelsMustFitOneByte() {
        try (LmdbWriter w = LmdbWriter.builder(dir.resolve("labels")).build()) {
            assertThatThrownBy(() -> w.append(new byte[1], 256))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("label 256");
            assertThatThrownBy(() -> w.append(new byte[1], -1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..255");
            assertThatThrownBy(() -> w.append(new byte[1]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("__labels__");
            w.commit();
        }
    }

    @Test
    void aKeyWrittenTwiceIsNamed() {
        Path env = dir.resolve("same");
        LmdbWriter w = LmdbWriter.builder(env).layout(new LmdbLayout(i -> "same", -1, "__len__", null)).build();
        w.append(new byte[1]);
        assertThatThrownBy(() -> w.append(new byte[2]))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining("same")
                .hasMessageContaining("twice")
                .hasMessageContaining(env.toString());
        assertThatThrownBy(() -> w.append(new byte[2])).isInstanceOf(IllegalStateException.class);
        w.close(); // nothing more to do: the failure ended it

        Path clash = dir.resolve("clash");
        LmdbWriter c = LmdbWriter.builder(clash).layout(new LmdbLayout(i -> "__len__", -1, "__len__", null)).build();
        c.append(new byte[1]);
        assertThatThrownBy(c::commit).isInstanceOf(LmdbException.class).hasMessageContaining("__len__");
    }

    @Test
    void aKeyTooLongIsNamed() {
        String longKey = "k".repeat(600);
        try (LmdbWriter w = LmdbWriter.builder(dir.resolve("long"))
                .layout(new LmdbLayout(i -> longKey, -1, "__len__", null)).build()) {
            assertThatThrownBy(() -> w.append(new byte[1]))
                    .isInstanceOf(LmdbException.class)
                    .hasMessageContaining("600 bytes")
                    .hasMessageContaining("long");
            w.commit();
        }
    }

    @Test
    void aFixedSizeLayoutMustGetThatManySamples() {
        Path env = dir.resolve("fixed");
        LmdbWriter w = LmdbWriter.builder(env).layout(LmdbLayout.keys(List.of("cat", "dog", "emu"))).build();
        w.append(new byte[] {1});
        w.append(new byte[] {2});
        assertThatThrownBy(w::commit)
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining("says 3 samples, and 2 were written");
    }

    @Test
    void abortDeletesWhatWasWrittenSoNothingReadsAsADataset() {
        Path env = dir.resolve("aborted");
        LmdbWriter w = LmdbWriter.builder(env).commitEvery(1, 1).build();
        w.append(new byte[] {1}, 0);
        w.abort();
        w.close();
        assertThatThrownBy(() -> w.append(new byte[] {2}, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(w::commit).isInstanceOf(IllegalStateException.class).hasMessageContaining("nothing");
        assertThat(env.resolve("data.mdb")).doesNotExist();
        assertThatThrownBy(() -> LmdbDataset.open(env)).isInstanceOf(LmdbException.class);
    }

    /** Used as the javadoc shows, a sample failing inside try-with-resources publishes nothing. */
    @Test
    void aSampleFailingInsideTryWithResourcesPublishesNothing() {
        Path env = dir.resolve("failed");
        assertThatThrownBy(() -> {
            try (LmdbWriter w = LmdbWriter.builder(env).commitEvery(10, 1 << 20).build()) {
                for (int i = 0; i < 200; i++) {
                    if (i == 150) {
                        throw new java.io.IOException("cannot read input 150");
                    }
                    w.append(new byte[] {(byte) i}, i % 10);
                }
                w.commit();
            }
        }).hasMessageContaining("input 150");
        assertThat(env.resolve("data.mdb")).doesNotExist();
        assertThat(env.resolve("lock.mdb")).doesNotExist();
    }

    /** A failed or abandoned overwrite leaves the environment it was to replace as it was. */
    @Test
    void anOverwriteThatFailsLeavesTheOldEnvironmentWhole() throws Exception {
        for (boolean single : new boolean[] {false, true}) {
            Path env = dir.resolve(single ? "old.lmdb" : "old");
            try (LmdbWriter w = LmdbWriter.builder(env).singleFile(single).build()) {
                w.append(new byte[] {1}, 1);
                w.append(new byte[] {2}, 2);
                w.commit();
            }
            assertThatThrownBy(() -> {
                try (LmdbWriter w = LmdbWriter.builder(env).singleFile(single).overwrite(true).commitEvery(1, 1)
                        .build()) {
                    for (int i = 0; i < 50; i++) {
                        w.append(new byte[100], 0);
                    }
                    throw new IllegalStateException("the job was cancelled");
                }
            }).hasMessageContaining("cancelled");
            LmdbWriter dropped = LmdbWriter.builder(env).singleFile(single).overwrite(true).commitEvery(1, 1).build();
            dropped.append(new byte[100], 0); // never committed nor closed: a process that died here
            try (LmdbDataset ds = LmdbDataset.open(env)) {
                assertThat(ds.size()).as("single file %s", single).isEqualTo(2);
            }
            dropped.abort();
            try (java.util.stream.Stream<Path> left = Files.list(dir)) {
                assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("stoker-part"));
            }
        }
    }

    @Test
    void settingsAreChecked() {
        LmdbWriter.Builder b = LmdbWriter.builder(dir.resolve("x"));
        assertThatThrownBy(() -> b.mapSize(10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.commitEvery(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.expect(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
