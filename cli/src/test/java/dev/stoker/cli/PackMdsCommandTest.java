package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.mds.MdsDataset;
import dev.stoker.formats.mds.MdsOptions;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stoker pack --to mds, read back with MdsDataset; and the option combinations it refuses. */
class PackMdsCommandTest {
    @TempDir
    Path dir;

    /** root/<class>/img<n>.jpg for classes ant, bee, cat (labels 0, 1, 2): the files in ImageFolder order. */
    private List<Path> imageFolder(Path root) throws Exception {
        List<Path> files = new ArrayList<>();
        for (String cls : List.of("ant", "bee", "cat")) {
            Files.createDirectories(root.resolve(cls));
            for (int i = 0; i < 4; i++) {
                BufferedImage img = new BufferedImage(8 + i, 6, BufferedImage.TYPE_INT_RGB);
                img.setRGB(0, 0, new Color(40 * files.size() % 256, 10 * i, 200).getRGB());
                Path file = root.resolve(cls).resolve("img" + i + ".jpg");
                ImageIO.write(img, "jpg", file.toFile());
                files.add(file);
            }
        }
        return files;
    }

    @Test
    void packsAnImageFolderIntoJpegAndClassColumns() throws Exception {
        List<Path> files = imageFolder(dir.resolve("images"));
        Path out = dir.resolve("out/mds");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", dir.resolve("images").toString(), "--to", "mds",
                "-o", out.toString(), "--max-bytes", "2K", "--compression", "zstd", "--hashes", "sha1,md5");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("12 samples from 12 files", "MDS dataset " + out, "jpg:jpeg", "cls:int");
        // before reading: the reader decompresses beside them
        try (var shards = Files.list(out)) {
            assertThat(shards.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("shard.")))
                    .allMatch(n -> n.endsWith(".mds.zstd"));
        }
        try (MdsDataset mds = MdsDataset.open(out, MdsOptions.defaults().verifyHashes(true))) {
            assertThat(mds.size()).isEqualTo(12);
            assertThat(mds.shards()).as("2K shards").isGreaterThan(1);
            assertThat(mds.columns()).containsExactlyInAnyOrder("jpg", "cls");
            for (int i = 0; i < 12; i++) {
                assertThat(mds.get(i).bytes("jpg")).as("sample %d", i).isEqualTo(Files.readAllBytes(files.get(i)));
                assertThat(mds.get(i).longValue("cls")).isEqualTo(i / 4);
            }
        }
    }

    @Test
    void inspectShowsTheColumnsAndFirstSamplesAndWritesNothingBesideTheData() throws Exception {
        imageFolder(dir.resolve("images"));
        Path out = dir.resolve("mds");
        assertThat(BenchCommandTest.run("pack", dir.resolve("images").toString(), "--to", "mds", "-o", out.toString(),
                "--compression", "gz").exit()).isZero();
        List<String> before;
        try (var files = Files.list(out)) {
            before = files.map(Path::toString).sorted().toList();
        }
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", out.toString(), "-n", "2");
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("MDS dataset, 12 samples in 1 shard", "cls:int", "jpg:jpeg", "0: cls=0 jpg=",
                "1: cls=0").doesNotContain("2: cls");
        try (var files = Files.list(out)) {
            assertThat(files.map(Path::toString).sorted().toList()).isEqualTo(before);
        }
        Files.writeString(out.resolve("index.json"), "{\"version\": 2, \"shards\": [{}]}");
        r = BenchCommandTest.run("inspect", out.resolve("index.json").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains(out + ": error:");
        assertThat(r.out()).doesNotContain("error");
    }

    @Test
    void packsJsonLinesShuffledAsTheSeedSays() throws Exception {
        Path jsonl = dir.resolve("captions.jsonl");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add("{\"caption\": \"line " + i + "\"}");
        }
        Files.write(jsonl, lines, StandardCharsets.UTF_8);
        Path out = dir.resolve("text");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", jsonl.toString(), "--to", "mds", "-o", out.toString(),
                "--shuffle", "--seed", "3");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> read = new ArrayList<>();
        try (MdsDataset mds = MdsDataset.open(out)) {
            for (long i = 0; i < mds.size(); i++) {
                read.add(mds.get(i).string("json"));
            }
        }
        List<String> expected = new ArrayList<>(lines);
        PackCommand.shuffle(expected, 3);
        assertThat(read).isEqualTo(expected).isNotEqualTo(lines);
    }

    @Test
    void refusesWhatMdsCannotHoldOrTheOptionsOfOtherTargets() throws Exception {
        imageFolder(dir.resolve("images"));
        String in = dir.resolve("images").toString();
        String out = dir.resolve("o").toString();
        assertThat(BenchCommandTest.run("pack", in, "--to", "mds", "-o", out, "--max-samples", "3").err())
                .contains("--max-samples is not for --to mds");
        assertThat(BenchCommandTest.run("pack", in, "--to", "mds", "-o", out, "--compression", "br").err())
                .contains("zstd or gz");
        assertThat(BenchCommandTest.run("pack", in, "--to", "mds", "-o", out, "--hashes", "xxh64").err())
                .contains("xxh64");
        assertThat(BenchCommandTest.run("pack", in, "--compression", "zstd").err())
                .contains("--compression is for --to mds");
        assertThat(BenchCommandTest.run("pack", in, "--to", "mds", "-o", dir.resolve("p-%03d").toString()).err())
                .contains("not a shard pattern");
        assertThat(BenchCommandTest.run("pack", in, "--to", "parquet").err()).contains("tar, lmdb or mds");

        Path mixed = dir.resolve("mixed");
        Files.createDirectories(mixed);
        Files.writeString(mixed.resolve("a.txt"), "x");
        Files.writeString(mixed.resolve("a.cls"), "1");
        Files.writeString(mixed.resolve("b.txt"), "y"); // no .cls
        BenchCommandTest.Run r = BenchCommandTest.run("pack", mixed.toString(), "--layout", "files", "--to", "mds",
                "-o", out);
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("sample b has txt where the first has cls, txt");
        assertThat(Path.of(out)).doesNotExist();

        Files.writeString(mixed.resolve("b.cls"), "not a number");
        r = BenchCommandTest.run("pack", mixed.toString(), "--layout", "files", "--to", "mds", "-o", out);
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("sample b", "not a whole number");
        assertThat(Path.of(out).resolve("index.json")).as("a failed pack leaves no index").doesNotExist();
    }
}
