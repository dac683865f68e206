package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.tar.IndexedTarDataset;
import dev.stoker.formats.tar.ShardWriter;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stoker pack publishes a set whole or not at all, and says what it read. */
class PackPublishCommandTest {
    @TempDir
    Path dir;

    private Path keyedFiles(String name, int n) throws Exception {
        Path root = Files.createDirectories(dir.resolve(name));
        for (int i = 0; i < n; i++) {
            Files.writeString(root.resolve(String.format("k%04d.txt", i)), "sample " + i);
        }
        return root;
    }

    private TreeSet<String> files(Path folder) throws Exception {
        try (Stream<Path> s = Files.list(folder)) {
            return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void packingAgainWithFewerInputsIsRefusedAndOverwriteLeavesExactlyTheNewSet() throws Exception {
        String pattern = dir.resolve("out/shard-%06d.tar").toString();
        BenchCommandTest.Run r = BenchCommandTest.run("pack", keyedFiles("many", 800).toString(), "-q", "-o", pattern,
                "--max-samples", "50");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("16 shards", "and last their manifest shard.stoker-manifest");
        TreeSet<String> before = files(dir.resolve("out"));

        Path fewer = keyedFiles("fewer", 400);
        r = BenchCommandTest.run("pack", fewer.toString(), "-q", "-o", pattern, "--max-samples", "50");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("already holds a set of shards shard-%06d.tar", "--overwrite");
        assertThat(files(dir.resolve("out"))).isEqualTo(before);

        r = BenchCommandTest.run("pack", fewer.toString(), "-q", "-o", pattern, "--max-samples", "50", "--overwrite");
        assertThat(r.exit()).as(r.err()).isZero();
        TreeSet<String> expected = new TreeSet<>(List.of("shard.stoker-manifest"));
        for (int s = 0; s < 8; s++) {
            expected.add(String.format("shard-%06d.tar", s));
            expected.add(String.format("shard-%06d.tar.idx", s));
        }
        assertThat(files(dir.resolve("out"))).isEqualTo(expected);
        List<String> shards = expected.stream().filter(n -> n.endsWith(".tar"))
                .map(n -> dir.resolve("out").resolve(n).toString()).toList();
        try (IndexedTarDataset ds = IndexedTarDataset.open(shards, IndexedTarDataset.MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(400);
        }
    }

    @Test
    void anInputFailingMidPackPublishesNothing() throws Exception {
        Path root = keyedFiles("in", 100);
        try (RandomAccessFile big = new RandomAccessFile(root.resolve("k0050x.bin").toFile(), "rw")) {
            big.setLength(3L << 30); // sparse: read() refuses files over 2 GiB, after 50 samples went in
        }
        String pattern = dir.resolve("out/shard-%06d.tar").toString();
        BenchCommandTest.Run r = BenchCommandTest.run("pack", root.toString(), "-q", "-o", pattern, "--max-samples",
                "20");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("k0050x.bin", "nothing was published");
        assertThat(files(dir.resolve("out"))).isEmpty();
    }

    @Test
    void inspectSaysWhetherASetIsCompleteOrNot() throws Exception {
        String pattern = dir.resolve("out/shard-%06d.tar").toString();
        assertThat(BenchCommandTest.run("pack", keyedFiles("in", 30).toString(), "-q", "-o", pattern,
                "--max-samples", "10").exit()).isZero();
        String shard = dir.resolve("out/shard-000001.tar").toString();
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", shard);
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("set: complete: 3 shards of shard-%06d.tar, 30 samples, written by stoker pack at");
        r = BenchCommandTest.run("inspect", dir.resolve("out").toString());
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("complete: 3 shards", "shard-000002.tar: 10 samples");

        // a pack into the same pattern that died before its commit
        ShardWriter killed = ShardWriter.builder(pattern).overwrite(true).build();
        killed.write("x", Map.of("txt", "x".getBytes(StandardCharsets.UTF_8)));
        r = BenchCommandTest.run("inspect", shard);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("set: INCOMPLETE", "shard.stoker-manifest.part", "killed");
        r = BenchCommandTest.run("inspect", dir.resolve("out").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("INCOMPLETE");
        killed.close();

        // a shard changed after the set was written
        Files.write(Path.of(shard), new byte[512], java.nio.file.StandardOpenOption.APPEND);
        r = BenchCommandTest.run("inspect", dir.resolve("out/shard.stoker-manifest").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("INCOMPLETE", "shard-000001.tar is", "changed after the set was written");
    }

    @Test
    void inspectSaysAnMdsFolderWithoutItsIndexIsIncomplete() throws Exception {
        Path mds = dir.resolve("mds");
        assertThat(BenchCommandTest.run("pack", keyedFiles("in", 30).toString(), "-q", "--to", "mds", "-o",
                mds.toString(), "--max-bytes", "200").exit()).isZero();
        Files.delete(mds.resolve("index.json")); // as a writer killed before its commit leaves it
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", mds.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("INCOMPLETE MDS dataset", "no index.json", "shard.00000.mds");
    }

    @Test
    void jsonlCountsTheLinesItRead() throws Exception {
        Path jsonl = dir.resolve("c.jsonl");
        Files.writeString(jsonl, "{\"a\":1}\n\n{\"a\":2}\n{\"a\":3}\n");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", jsonl.toString(), "-o",
                dir.resolve("j-%d.tar").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("3 samples from 3 lines").doesNotContain("0 files");
    }

    @Test
    void aStrayFileInAnImageFolderIsRefusedUntilTheLayoutIsSaid() throws Exception {
        Path root = dir.resolve("images");
        for (String cls : List.of("cat", "dog")) {
            Files.createDirectories(root.resolve(cls));
            for (int i = 0; i < 3; i++) {
                Files.writeString(root.resolve(cls).resolve(cls + i + ".jpg"), cls);
            }
        }
        Files.writeString(root.resolve("README.txt"), "notes");
        String pattern = dir.resolve("out/s-%d.tar").toString();
        BenchCommandTest.Run r = BenchCommandTest.run("pack", root.toString(), "-q", "-o", pattern);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("README.txt", "--layout imagefolder", "--layout files", ".cls");
        assertThat(dir.resolve("out")).doesNotExist();

        r = BenchCommandTest.run("pack", root.toString(), "-q", "-o", pattern, "--layout", "imagefolder");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("6 samples", "classes: 2 (cat, dog)", "skipped 1 file at the top", "README.txt");
    }
}
