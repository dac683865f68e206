package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.lmdb.LmdbDataset;
import dev.stoker.formats.lmdb.LmdbLayout;
import dev.stoker.formats.lmdb.LmdbSample;
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

/** stoker pack --to lmdb, read back with LmdbDataset; and the option combinations it refuses. */
class PackLmdbCommandTest {
    private static final List<String> CLASSES = List.of("ant", "bee", "cat"); // sorted: labels 0, 1, 2

    @TempDir
    Path dir;

    /** root/<class>/img<n>.jpg, real JPEGs tinted by class, classes made out of order; and the expected samples. */
    private record Folder(Path root, List<byte[]> values, List<Integer> labels) {}

    private Folder imageFolder() throws Exception {
        Path root = dir.resolve("images");
        List<byte[]> values = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        for (String cls : List.of("cat", "ant", "bee")) {
            Files.createDirectories(root.resolve(cls));
            for (int i = 0; i < 4; i++) {
                BufferedImage img = new BufferedImage(8 + i, 6, BufferedImage.TYPE_INT_RGB);
                img.setRGB(0, 0, new Color(40 * CLASSES.indexOf(cls), 10 * i, 200).getRGB());
                Path file = root.resolve(cls).resolve("img" + i + ".jpg");
                ImageIO.write(img, "jpg", file.toFile());
            }
        }
        // torchvision's ImageFolder order: classes sorted, then files sorted
        for (String cls : CLASSES) {
            for (int i = 0; i < 4; i++) {
                values.add(Files.readAllBytes(root.resolve(cls).resolve("img" + i + ".jpg")));
                labels.add(CLASSES.indexOf(cls));
            }
        }
        return new Folder(root, values, labels);
    }

    private static List<LmdbSample> readAll(Path env, LmdbLayout layout) {
        try (LmdbDataset ds = LmdbDataset.open(env, layout)) {
            List<LmdbSample> all = new ArrayList<>();
            for (long i = 0; i < ds.size(); i++) {
                all.add(ds.get(i));
            }
            return all;
        }
    }

    @Test
    void packsAnImageFolderIntoW8sLayoutWithClassIndexLabels() throws Exception {
        Folder f = imageFolder();
        Path env = dir.resolve("out/lmdb");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", env.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("12 samples from 12 files", "classes: 3 (ant, bee, cat)",
                "LMDB environment " + env, "000000..000011", "__labels__", "/s");
        assertThat(r.err()).contains("pack:"); // progress lines (stderr is not a terminal here)
        List<LmdbSample> samples = readAll(env, LmdbLayout.w8());
        assertThat(samples).hasSize(12);
        for (int i = 0; i < 12; i++) {
            assertThat(samples.get(i).key()).isEqualTo(String.format("%06d", i));
            assertThat(samples.get(i).value()).as("sample %d", i).isEqualTo(f.values().get(i));
            assertThat(samples.get(i).label()).as("label %d", i).isEqualTo(f.labels().get(i));
        }
    }

    @Test
    void shuffleWritesASeededPermutationWithItsLabels() throws Exception {
        Folder f = imageFolder();
        List<Integer> expected = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
        PackCommand.shuffle(expected, 5);
        List<Integer> same = packShuffled(f, "a", 5);
        assertThat(same).isEqualTo(expected).isEqualTo(packShuffled(f, "b", 5)).isNotEqualTo(packShuffled(f, "c", 6));
    }

    /** Packs with --shuffle --seed, and gives which input sample each written sample is. */
    private List<Integer> packShuffled(Folder f, String name, long seed) {
        Path env = dir.resolve(name);
        BenchCommandTest.Run r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", env.toString(),
                "--shuffle", "--seed", Long.toString(seed), "-q");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty(); // --quiet: no progress
        assertThat(r.out()).contains("shuffled with seed " + seed);
        List<Integer> sources = new ArrayList<>();
        for (LmdbSample s : readAll(env, LmdbLayout.w8())) {
            int from = -1;
            for (int j = 0; j < f.values().size(); j++) {
                if (java.util.Arrays.equals(f.values().get(j), s.value())) {
                    from = j;
                }
            }
            assertThat(from).isNotNegative();
            assertThat(s.label()).isEqualTo(f.labels().get(from));
            sources.add(from);
        }
        return sources;
    }

    @Test
    void jsonlAndSingleFilesGoInWithoutLabels() throws Exception {
        Path jsonl = dir.resolve("c.jsonl");
        Files.writeString(jsonl, "{\"a\":1}\n\n{\"a\":2}\n");
        Path env = dir.resolve("text");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", jsonl.toString(), "--to", "LMDB", "-o", env.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("2 samples", "JSONL").doesNotContain("__labels__");
        List<LmdbSample> lines = readAll(env, LmdbLayout.w8().withoutLabels());
        assertThat(lines).extracting(s -> new String(s.value(), StandardCharsets.UTF_8))
                .containsExactly("{\"a\":1}", "{\"a\":2}");
        assertThat(lines).extracting(LmdbSample::label).containsOnly(-1);

        Path files = dir.resolve("files");
        Files.createDirectories(files.resolve("sub"));
        Files.writeString(files.resolve("sub/x.jpg"), "J");
        Files.writeString(files.resolve("y.txt"), "T");
        // a class-like folder beside a file at the top is ambiguous: --layout says which
        r = BenchCommandTest.run("pack", files.toString(), "--to", "lmdb", "-o", dir.resolve("files-env").toString(),
                "--layout", "files");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(readAll(dir.resolve("files-env"), LmdbLayout.w8().withoutLabels()))
                .extracting(s -> new String(s.value(), StandardCharsets.UTF_8)).containsExactly("J", "T");
    }

    @Test
    void aSampleOfTwoFilesIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path files = dir.resolve("pairs");
        Files.createDirectories(files.resolve("sub"));
        Files.writeString(files.resolve("sub/x.jpg"), "J");
        Files.writeString(files.resolve("sub/x.json"), "{}");
        Files.writeString(files.resolve("y.txt"), "T"); // a file at the top: the files layout, not an image folder
        Path env = dir.resolve("pairs-env");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", files.toString(), "--to", "lmdb", "-o", env.toString());
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("stoker pack:", "one value per sample", "sub/x", "jpg, json", "--to tar");
        assertThat(env).doesNotExist();
    }

    @Test
    void singleFileWritesOneDataFileThatReadsBack() throws Exception {
        Folder f = imageFolder();
        Path file = dir.resolve("out/train.lmdb");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", file.toString(),
                "--single-file", "-q");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(file).isRegularFile();
        assertThat(dir.resolve("out/train.lmdb-lock")).isRegularFile();
        List<LmdbSample> samples = readAll(file, LmdbLayout.w8());
        assertThat(samples).hasSize(12);
        assertThat(samples.get(11).value()).isEqualTo(f.values().get(11));

        r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", file.toString(), "--single-file");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("already a file", file.toString(), "--overwrite");
        r = BenchCommandTest.run("pack", f.root().toString(), "-o", dir.resolve("t-%d.tar").toString(), "--single-file");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--single-file is for --to lmdb");
    }

    @Test
    void anExistingEnvironmentIsReplacedOnlyWithOverwrite() throws Exception {
        Folder f = imageFolder();
        Path env = dir.resolve("again");
        assertThat(BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", env.toString(), "-q").exit())
                .isZero();
        BenchCommandTest.Run r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", env.toString());
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("already an LMDB environment", env.toString(), "--overwrite");
        r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", env.toString(), "-q", "--overwrite",
                "--shuffle");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(readAll(env, LmdbLayout.w8())).hasSize(12);

        // a folder of other files is never written into, --overwrite or not
        r = BenchCommandTest.run("pack", f.root().toString(), "--to", "lmdb", "-o", f.root().resolve("ant").toString(),
                "--overwrite");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("stoker pack:", "other file", "img0.jpg").doesNotContain("incomplete");
    }

    @Test
    void tarOnlyOptionsAndBadValuesAreUsageErrors() throws Exception {
        Folder f = imageFolder();
        String in = f.root().toString();
        String env = dir.resolve("never").toString();
        record Case(List<String> args, List<String> message) {}
        List<Case> cases = List.of(
                new Case(List.of("--to", "lmdb", "-o", env, "--max-samples", "5"), List.of("--max-samples", "tar")),
                new Case(List.of("--to", "lmdb", "-o", env, "--max-bytes", "1M"), List.of("--max-bytes", "tar")),
                new Case(List.of("--to", "lmdb", "-o", env, "--no-index"), List.of("--no-index", "tar")),
                new Case(List.of("--to", "lmdb", "-o", env, "--no-index", "--max-samples", "2"),
                        List.of("--max-samples, --no-index are for tar")),
                new Case(List.of("--to", "lmdb", "-o", dir.resolve("s-%06d").toString()), List.of("not a shard pattern")),
                new Case(List.of("--to", "zip", "-o", env), List.of("--to is tar, lmdb or mds", "'zip'")),
                new Case(List.of("-o", dir.resolve("t-%d.tar").toString(), "--single-file"),
                        List.of("--single-file", "lmdb")));
        for (Case c : cases) {
            List<String> args = new ArrayList<>(List.of("pack", in));
            args.addAll(c.args());
            BenchCommandTest.Run r = BenchCommandTest.run(args.toArray(String[]::new));
            assertThat(r.exit()).as("%s", c.args()).isEqualTo(2);
            assertThat(r.err()).as("%s", c.args()).contains("stoker pack:").contains(c.message());
        }
        assertThat(Path.of(env)).doesNotExist();
        assertThat(BenchCommandTest.run("pack", "--help").out()).contains("--to", "lmdb", "__labels__", "--overwrite");
    }
}
