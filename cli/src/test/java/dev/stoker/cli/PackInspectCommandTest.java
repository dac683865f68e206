package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.tar.IndexedTarDataset;
import dev.stoker.formats.tar.ShardPatterns;
import dev.stoker.formats.tar.TarSample;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackInspectCommandTest {
    @TempDir
    Path dir;

    /** root/<class>/<n>.jpg: 3 classes ("b" first on disk, sorted: a, b, c) x 4 files. */
    private Path imageFolder() throws Exception {
        Path root = dir.resolve("images");
        int n = 0;
        for (String cls : List.of("b", "a", "c")) {
            Files.createDirectories(root.resolve(cls));
            for (int i = 0; i < 4; i++, n++) {
                Files.write(root.resolve(cls).resolve("img" + n + ".jpg"), (cls + n).getBytes(StandardCharsets.UTF_8));
            }
        }
        return root;
    }

    @Test
    void packsAnImageFolderIntoIndexedShardsWithSortedLabels() throws Exception {
        Path root = imageFolder();
        String pattern = dir.resolve("out/s-%03d.tar").toString();
        BenchCommandTest.Run r = BenchCommandTest.run("pack", root.toString(), "-o", pattern, "--max-samples", "5");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("12 samples", "3 shards", "classes: 3 (a, b, c)");
        List<String> shards = ShardPatterns.expand(dir.resolve("out/s-{000..002}.tar").toString());
        try (IndexedTarDataset ds = IndexedTarDataset.open(shards, IndexedTarDataset.MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(12);
            for (long i = 0; i < 12; i++) {
                TarSample s = ds.get(i);
                String content = s.string("jpg");
                int label = Integer.parseInt(s.string("cls"));
                assertThat(content.charAt(0)).isEqualTo((char) ('a' + label));
                assertThat(s.key()).isEqualTo(String.format("%06d", i));
            }
        }
    }

    @Test
    void shuffleKeepsKeysAndIsSeeded() throws Exception {
        Path root = imageFolder();
        List<String> first = packOrder(root, "x", "--shuffle", "--seed", "5");
        List<String> again = packOrder(root, "y", "--shuffle", "--seed", "5");
        List<String> other = packOrder(root, "z", "--shuffle", "--seed", "6");
        assertThat(first).isEqualTo(again).isNotEqualTo(other);
        assertThat(new HashSet<>(first)).hasSize(12);
    }

    private List<String> packOrder(Path root, String name, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("pack", root.toString(), "-q", "-o",
                dir.resolve(name + "-%d.tar").toString()));
        args.addAll(Arrays.asList(more));
        assertThat(BenchCommandTest.run(args.toArray(String[]::new)).exit()).isZero();
        try (IndexedTarDataset ds = IndexedTarDataset.open(List.of(dir.resolve(name + "-0.tar").toString()),
                IndexedTarDataset.MissingIndex.FAIL)) {
            List<String> keys = new ArrayList<>();
            for (long i = 0; i < ds.size(); i++) {
                keys.add(ds.get(i).key());
            }
            return keys;
        }
    }

    @Test
    void packsFilesGroupedByKeyAndJsonl() throws Exception {
        Path root = dir.resolve("files");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/x.jpg"), "J");
        Files.writeString(root.resolve("sub/x.json"), "{}");
        Files.writeString(root.resolve("y.txt"), "T");
        Files.writeString(root.resolve("README"), "no extension");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", root.toString(), "-o", dir.resolve("f-%d.tar").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("2 samples", "files grouped by key", "skipped 1 file");

        Path jsonl = dir.resolve("c.jsonl");
        Files.writeString(jsonl, "{\"a\":1}\n\n{\"a\":2}\n");
        r = BenchCommandTest.run("pack", jsonl.toString(), "-o", dir.resolve("j-%d.tar").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("2 samples", "JSONL");
    }

    @Test
    void inspectDescribesShardsAndIndicesAndReportsDamage() throws Exception {
        Path root = imageFolder();
        BenchCommandTest.run("pack", root.toString(), "-q", "-o", dir.resolve("i-%d.tar").toString());
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", dir.resolve("i-0.tar").toString(),
                dir.resolve("i-0.tar.idx").toString());
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("12 samples, 24 members", "jpg", "cls", "000000: jpg", "matches (12 samples)",
                "shard index, 12 samples");

        byte[] bytes = Files.readAllBytes(dir.resolve("i-0.tar"));
        Files.write(dir.resolve("cut.tar"), Arrays.copyOf(bytes, 3000));
        r = BenchCommandTest.run("inspect", dir.resolve("cut.tar").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("cut.tar: error: shard", "byte offset", "truncated");
        assertThat(r.out()).contains("cut.tar: tar shard").doesNotContain("error"); // the report, errors apart

        r = BenchCommandTest.run("inspect", "pipe:cat '" + dir.resolve("i-0.tar") + "'");
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("12 samples, 24 members", "000000: jpg");
        try (var gz = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("i-0.tar.gz")))) {
            gz.write(bytes);
        }
        r = BenchCommandTest.run("inspect", dir.resolve("i-0.tar.gz").toString());
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("gzip-compressed tar shard", "12 samples, 24 members").doesNotContain("index");
        r = BenchCommandTest.run("pack", root.toString(), "-q", "-o", dir.resolve("z-%d.tar.gz").toString());
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(dir.resolve("z-0.tar.gz")).exists();
        assertThat(dir.resolve("z-0.tar.gz.idx")).doesNotExist();
        assertThat(BenchCommandTest.run("inspect", dir.resolve("z-0.tar.gz").toString()).out())
                .contains("gzip-compressed tar shard", "12 samples, 24 members");
        r = BenchCommandTest.run("inspect", "pipe:cat '" + dir.resolve("gone.tar") + "'");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("exited with status 1", "No such file");
    }

    @Test
    void indexWritesMissingSidecars() throws Exception {
        Path root = imageFolder();
        BenchCommandTest.run("pack", root.toString(), "-q", "--no-index", "-o", dir.resolve("n-%d.tar").toString());
        assertThat(dir.resolve("n-0.tar.idx")).doesNotExist();
        BenchCommandTest.Run r = BenchCommandTest.run("index", dir.resolve("n-{0..0}.tar").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(dir.resolve("n-0.tar.idx")).exists();
        assertThat(BenchCommandTest.run("index", dir.resolve("n-0.tar").toString()).out()).contains("already");
    }

    @Test
    void indexOfARemoteShardIsStreamedIntoTheOutFolderAndMatchesALocalScan() throws Exception {
        Path root = imageFolder();
        BenchCommandTest.run("pack", root.toString(), "-q", "-o", dir.resolve("m-%d.tar").toString());
        String remote = "pipe:cat '" + dir.resolve("m-0.tar") + "'";
        BenchCommandTest.Run r = BenchCommandTest.run("index", remote);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("--out");
        r = BenchCommandTest.run("index", "-o", dir.resolve("idx").toString(), remote);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("upload it beside");
        assertThat(Files.readAllBytes(dir.resolve("idx").resolve("m-0.tar.idx")))
                .as("the same index a local scan wrote").isEqualTo(Files.readAllBytes(dir.resolve("m-0.tar.idx")));
        assertThat(BenchCommandTest.run("index", "-o", dir.resolve("idx").toString(), remote).out()).contains("already");

        try (var gz = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("m-0.tar.gz")))) {
            gz.write(Files.readAllBytes(dir.resolve("m-0.tar")));
        }
        r = BenchCommandTest.run("index", "-o", dir.resolve("idx").toString(), "pipe:cat '" + dir.resolve("m-0.tar.gz") + "'");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("gzip-compressed");
        assertThat(RemoteNames.fileName("pipe:aws s3 cp s3://b/x/train-000001.tar -")).isEqualTo("train-000001.tar");
        assertThat(RemoteNames.fileName("https://host/a/train-7.tar?sig=1")).isEqualTo("train-7.tar");
    }

    @Test
    void mistakesGetMessagesForAPerson() {
        BenchCommandTest.Run r = BenchCommandTest.run("pack", dir.resolve("nothing").toString());
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("stoker pack:", "there is no");
        r = BenchCommandTest.run("pack", dir.toString(), "-o", "same.tar");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("same name");
        r = BenchCommandTest.run("pack", dir.toString(), "--max-bytes", "lots");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("not a size");
        r = BenchCommandTest.run("inspect", dir.resolve("missing.tar").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("no such file");
        Set<String> help = Set.of(BenchCommandTest.run("pack", "--help").out(), BenchCommandTest.run("inspect", "--help").out());
        assertThat(help).allSatisfy(h -> assertThat(h).contains("Examples:"));
    }

    @Test
    void byteSizesParse() {
        assertThat(ByteSize.parse("1000")).isEqualTo(1000);
        assertThat(ByteSize.parse("500M")).isEqualTo(500L << 20);
        assertThat(ByteSize.parse("1GiB")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("1.5k")).isEqualTo(1536);
        assertThat(ByteSize.format(1536)).isEqualTo("1.50 KiB");
    }

    /** Errors go to standard error and set the exit status, whatever the kind of file. */
    @Test
    void inspectErrorsGoToStandardError() throws Exception {
        Files.write(dir.resolve("bad.npy"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("bad.tar.idx"), new byte[] {1, 2, 3});
        Files.writeString(dir.resolve("notes.txt"), "hello");
        for (String name : new String[] {"bad.npy", "bad.tar.idx", "notes.txt", "missing.tar"}) {
            BenchCommandTest.Run r = BenchCommandTest.run("inspect", dir.resolve(name).toString());
            assertThat(r.exit()).as(name).isEqualTo(1);
            assertThat(r.err()).as(name).startsWith(dir.resolve(name) + ": ");
            assertThat(r.out()).as(name).isBlank();
        }
    }

    @Test
    void inspectShowsTokenFiles() throws Exception {
        Path bin = dir.resolve("t.bin");
        Files.write(bin, new byte[] {1, 0, 2, 0, (byte) 0xff, (byte) 0xff});
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", bin.toString());
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("3 u16 tokens", "first tokens: 1, 2, 65535");
        Files.write(bin, new byte[] {1, 0, 2});
        r = BenchCommandTest.run("inspect", bin.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains(bin + ": error:");
        assertThat(r.out()).doesNotContain("error");
    }
}
