package dev.stoker.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.tar.IndexedTarDataset;
import dev.stoker.formats.tar.IndexedTarDataset.MissingIndex;
import dev.stoker.formats.tar.ShardIndex;
import dev.stoker.formats.tar.TarSample;
import dev.stoker.formats.tar.TarShardDataset;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real Spark in local mode with two threads: packs DataFrames, then reads the shards with Stoker's readers. */
class ShardPackerTest {
    private static final StructType SCHEMA = new StructType()
            .add("key", DataTypes.StringType)
            .add("image", DataTypes.BinaryType)
            .add("bin", DataTypes.BinaryType)
            .add("label", DataTypes.IntegerType)
            .add("caption", DataTypes.StringType);

    private static SparkSession spark;
    private static JavaSparkContext jsc;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SparkSession.builder().master("local[2]").appName("stoker-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "3")
                .getOrCreate();
        jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    /** The rows of the test data: keys s00000..., a small JPEG, random bytes, a label, a caption. */
    static List<Row> rows(int n, long seed) {
        Random random = new Random(seed);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int label = random.nextInt(10);
            byte[] bin = new byte[random.nextInt(3000)];
            random.nextBytes(bin);
            rows.add(RowFactory.create(String.format("s%05d", i), jpeg(random, label), bin, label,
                    "caption " + i + " \u00e9t\u00e9"));
        }
        return rows;
    }

    private static byte[] jpeg(Random random, int label) {
        BufferedImage image = new BufferedImage(16, 12, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 12; y++) {
            for (int x = 0; x < 16; x++) {
                image.setRGB(x, y, (label * 25) << 16 | random.nextInt(1 << 16));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "jpg", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static Dataset<Row> frame(List<Row> rows, int partitions) {
        return spark.createDataFrame(jsc.parallelize(rows, partitions), SCHEMA);
    }

    private ShardPacker.Builder packer(Path out) {
        return ShardPacker.builder(out.toString()).key("key")
                .field("jpg", "image").field("bin", "bin").field("cls", "label").field("txt", "caption");
    }

    private static List<String> tarNames(Path out) throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tar")).sorted().toList();
        }
    }

    @Test
    void packsPartitionsIntoShardsThatStokerReadsBackSampleForSample() throws IOException {
        List<Row> rows = rows(300, 1);
        Path out = dir.resolve("train");
        PackSummary summary = packer(out).shardName("train-%05d-%06d.tar").maxSamples(40).build()
                .pack(frame(rows, 3));

        // 100 rows per partition, at most 40 per shard: 40 + 40 + 20 in each of the 3 partitions
        assertThat(summary.partitions()).extracting(PartitionSummary::partition).containsExactly(0, 1, 2);
        assertThat(summary.samples()).isEqualTo(300);
        assertThat(summary.shards()).isEqualTo(9);
        assertThat(summary.shardFiles()).extracting(ShardFile::samples).containsExactly(40L, 40L, 20L, 40L, 40L, 20L,
                40L, 40L, 20L);
        List<String> expected = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            for (int s = 0; s < 3; s++) {
                expected.add(String.format("train-%05d-%06d.tar", p, s));
            }
        }
        assertThat(tarNames(out)).containsExactlyElementsOf(expected);
        assertThat(summary.shardPaths()).containsExactlyElementsOf(expected.stream().map(n -> out.resolve(n).toString()).toList());
        assertThat(out.resolve(PackPlan.STAGING)).doesNotExist();
        long onDisk = 0;
        for (ShardFile f : summary.shardFiles()) {
            onDisk += Files.size(Path.of(f.path()));
        }
        assertThat(summary.bytes()).isEqualTo(onDisk);
        assertThat(summary.toString()).startsWith("packed 300 samples into 9 shards (").endsWith("from 3 partitions");

        Map<String, Row> byKey = new HashMap<>();
        rows.forEach(r -> byKey.put(r.getString(0), r));
        Set<String> seen = new HashSet<>();
        // MissingIndex.FAIL: every shard must come with the .idx the packer wrote
        try (IndexedTarDataset ds = IndexedTarDataset.open(summary.shardPaths(), MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(300);
            for (int i = 0; i < ds.size(); i++) {
                TarSample s = ds.get(i);
                assertThat(seen.add(s.key())).as("key %s seen once", s.key()).isTrue();
                Row r = byKey.get(s.key());
                assertThat(r).as("key %s", s.key()).isNotNull();
                assertThat(s.extensions()).containsExactly("jpg", "bin", "cls", "txt");
                assertThat(s.bytes("jpg")).isEqualTo((byte[]) r.get(1));
                assertThat(s.bytes("bin")).isEqualTo((byte[]) r.get(2));
                assertThat(s.string("cls")).isEqualTo(Integer.toString(r.getInt(3)));
                assertThat(s.string("txt")).isEqualTo(r.getString(4));
            }
        }
        assertThat(seen).isEqualTo(byKey.keySet());
        // the JPEGs survive as images
        try (IndexedTarDataset ds = IndexedTarDataset.open(summary.shardPaths(), MissingIndex.FAIL)) {
            BufferedImage img = ImageIO.read(new java.io.ByteArrayInputStream(ds.get(7).bytes("jpg")));
            assertThat(img.getWidth()).isEqualTo(16);
        }
    }

    @Test
    void sidecarIndexesMatchAScanOfTheirShards() {
        PackSummary summary = packer(dir).maxSamples(25).build().pack(frame(rows(120, 2), 4));
        assertThat(summary.shards()).isEqualTo(8);
        for (ShardFile f : summary.shardFiles()) {
            Path shard = Path.of(f.path());
            ShardIndex read = ShardIndex.read(ShardIndex.sidecar(shard), f.bytes());
            ShardIndex scanned = ShardIndex.scan(shard);
            assertThat(read.sampleCount()).isEqualTo(scanned.sampleCount()).isEqualTo((int) f.samples());
            assertThat(read.shardLength()).isEqualTo(f.bytes());
            for (int i = 0; i < read.sampleCount(); i++) {
                assertThat(read.key(i)).isEqualTo(scanned.key(i));
                assertThat(read.extensions(i)).isEqualTo(scanned.extensions(i));
                assertThat(read.sampleBytes(i)).isEqualTo(scanned.sampleBytes(i));
            }
        }
    }

    @Test
    void theStreamingDatasetReadsEverySampleOnce() {
        PackSummary summary = packer(dir).maxSamples(30).build().pack(frame(rows(150, 3), 3));
        TarShardDataset ds = TarShardDataset.builder(summary.shardPaths()).shuffleShards(true).build();
        List<String> keys = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            try (SampleStream<TarSample> s = ds.open(new WorkerContext(w, 2, 0, 1, 0, 7))) {
                s.forEachRemaining(x -> keys.add(x.key()));
            }
        }
        assertThat(keys).hasSize(150).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(rows(150, 3).stream().map(r -> r.getString(0)).toList());
    }

    @Test
    void aGzNameWritesCompressedShardsWithoutSidecarsThatStreamBack() throws IOException {
        PackSummary summary = packer(dir).shardName("z-%05d-%06d.tar.gz").maxSamples(30).build()
                .pack(frame(rows(90, 3), 3));
        assertThat(summary.shardPaths()).isNotEmpty().allSatisfy(p -> {
            assertThat(p).endsWith(".tar.gz");
            assertThat(Path.of(p + ".idx")).doesNotExist();
        });
        try (var in = Files.newInputStream(Path.of(summary.shardPaths().getFirst()))) {
            assertThat(in.read()).isEqualTo(0x1f); // gzip's magic
        }
        List<String> keys = new ArrayList<>();
        try (SampleStream<TarSample> s = TarShardDataset.builder(summary.shardPaths()).build()
                .open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            s.forEachRemaining(x -> keys.add(x.key()));
        }
        assertThat(keys).containsExactlyInAnyOrderElementsOf(rows(90, 3).stream().map(r -> r.getString(0)).toList());
    }

    @Test
    void theSameInputGivesTheSameShardNamesAndBytes() throws IOException {
        Dataset<Row> df = frame(rows(90, 4), 3);
        PackSummary a = packer(dir.resolve("a")).maxSamples(20).build().pack(df);
        PackSummary b = packer(dir.resolve("b")).maxSamples(20).build().pack(df);
        assertThat(tarNames(dir.resolve("a"))).isEqualTo(tarNames(dir.resolve("b")))
                .hasSize(6).doesNotHaveDuplicates().allMatch(n -> n.matches("part-0000[0-2]-00000[0-1]\\.tar"));
        for (String name : tarNames(dir.resolve("a"))) {
            assertThat(Files.mismatch(dir.resolve("a").resolve(name), dir.resolve("b").resolve(name))).isEqualTo(-1);
            assertThat(Files.mismatch(dir.resolve("a").resolve(name + ".idx"), dir.resolve("b").resolve(name + ".idx")))
                    .isEqualTo(-1);
        }
        assertThat(a.shardFiles()).extracting(ShardFile::bytes).isEqualTo(b.shardFiles().stream().map(ShardFile::bytes).toList());
    }

    @Test
    void aByteLimitStartsNewShards() {
        long limit = 32 * 1024;
        PackSummary summary = packer(dir).maxBytes(limit).build().pack(frame(rows(200, 5), 3));
        assertThat(summary.samples()).isEqualTo(200);
        assertThat(summary.shards()).isGreaterThan(6);
        assertThat(summary.shardFiles()).allSatisfy(f -> assertThat(f.bytes()).isLessThanOrEqualTo(limit));
        try (IndexedTarDataset ds = IndexedTarDataset.open(summary.shardPaths(), MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(200);
        }
    }

    @Test
    void withoutAMappingEveryOtherColumnIsAMemberNamedByItsColumn() {
        // a '%' in the folder must not be taken for part of the shard name pattern
        Path out = dir.resolve("100%d");
        PackSummary summary = ShardPacker.builder(out.toString()).build().pack(frame(rows(10, 6), 2));
        assertThat(summary.shardPaths()).containsExactly(out.resolve("part-00000-000000.tar").toString(),
                out.resolve("part-00001-000000.tar").toString());
        try (IndexedTarDataset ds = IndexedTarDataset.open(summary.shardPaths(), MissingIndex.FAIL)) {
            assertThat(ds.get(0).extensions()).containsExactly("image", "bin", "label", "caption");
        }
    }

    @Test
    void anEmptyPartitionWritesNoShard() {
        List<Row> rows = rows(5, 7);
        Dataset<Row> df = spark.createDataFrame(jsc.parallelize(rows, 8), SCHEMA);
        PackSummary summary = packer(dir).build().pack(df);
        assertThat(summary.partitions()).hasSize(8);
        assertThat(summary.samples()).isEqualTo(5);
        assertThat(summary.shards()).isEqualTo(5);
        assertThat(summary.partitions()).filteredOn(p -> p.shards().isEmpty()).hasSize(3);
    }

    @Test
    void aNullPayloadFailsTheJobNamingTheKeyAndPartition() {
        List<Row> rows = new ArrayList<>(rows(60, 8));
        Row r = rows.get(45);
        rows.set(45, RowFactory.create(r.get(0), null, r.get(2), r.get(3), r.get(4)));
        assertThatThrownBy(() -> packer(dir).build().pack(frame(rows, 3)))
                .isInstanceOf(BadSampleException.class)
                .hasMessageContaining("partition 2")
                .hasMessageContaining("sample key \"s00045\"")
                .hasMessageContaining("column \"image\" (member .jpg) is null")
                .satisfies(e -> {
                    assertThat(((BadSampleException) e).partition()).isEqualTo(2);
                    assertThat(((BadSampleException) e).key()).isEqualTo("s00045");
                });
        assertThat(dir.resolve(PackPlan.STAGING)).doesNotExist();
    }

    @Test
    void aKeyThatIsNoMemberNameFailsNamingIt() {
        List<Row> rows = new ArrayList<>(rows(30, 9));
        Row r = rows.get(3);
        rows.set(3, RowFactory.create("img.003", r.get(1), r.get(2), r.get(3), r.get(4)));
        assertThatThrownBy(() -> packer(dir).build().pack(frame(rows, 3)))
                .isInstanceOf(BadSampleException.class)
                .hasMessageContaining("partition 0, sample key \"img.003\"")
                .hasMessageContaining("contains a dot");
    }

    @Test
    void skippingLeavesBadRowsOutAndCountsThem() {
        List<Row> rows = new ArrayList<>(rows(60, 10));
        Row a = rows.get(5);
        rows.set(5, RowFactory.create(a.get(0), a.get(1), null, a.get(3), a.get(4)));
        Row b = rows.get(30);
        rows.set(30, RowFactory.create(null, b.get(1), b.get(2), b.get(3), b.get(4)));
        Row c = rows.get(50);
        rows.set(50, RowFactory.create(rows.get(49).get(0), c.get(1), c.get(2), c.get(3), c.get(4)));
        PackSummary summary = packer(dir).maxSamples(16).onBadSample(BadSamples.SKIP).build().pack(frame(rows, 3));
        assertThat(summary.samples()).isEqualTo(57);
        assertThat(summary.skipped()).isEqualTo(3);
        assertThat(summary.partitions()).flatExtracting(PartitionSummary::reasons).satisfiesExactly(
                r -> assertThat(r).startsWith("partition 0, sample key \"s00005\": column \"bin\""),
                r -> assertThat(r).startsWith("partition 1, a row with a null key: the key is null"),
                r -> assertThat(r).startsWith("partition 2, sample key \"s00049\": the row before it has the same key"));
        assertThat(summary.toString()).contains("skipped 3 rows, e.g. partition 0, sample key \"s00005\"");
        try (IndexedTarDataset ds = IndexedTarDataset.open(summary.shardPaths(), MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(57);
        }
    }

    @Test
    void columnsAreCheckedOnTheDriverBeforeAnyTask() {
        Dataset<Row> df = frame(rows(3, 11), 1);
        assertThatThrownBy(() -> ShardPacker.builder(dir.toString()).key("id").build().pack(df))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("there is no key column \"id\"; the columns are key, image, bin, label, caption");
        assertThatThrownBy(() -> ShardPacker.builder(dir.toString()).key("label").build().pack(df))
                .hasMessageContaining("key column \"label\" is int; keys are strings");
        assertThatThrownBy(() -> ShardPacker.builder(dir.toString()).field("png", "picture").build().pack(df))
                .hasMessageContaining("there is no payload column \"picture\"");
        Dataset<Row> withDouble = df.selectExpr("key", "cast(label as double) as score");
        assertThatThrownBy(() -> ShardPacker.builder(dir.toString()).build().pack(withDouble))
                .hasMessageContaining("column \"score\" (member .score) is double; payloads are binary, string or integer");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shardsOfAnEarlierRunAreRefusedAndOverwriteLeavesExactlyTheNewSet() throws IOException {
        PackSummary first = packer(dir).maxSamples(4).build().pack(frame(rows(40, 12), 4)); // 3 shards a partition
        assertThat(first.shards()).isEqualTo(12);
        assertThat(dir.resolve("part.stoker-manifest")).exists();
        Dataset<Row> fewer = frame(rows(20, 12), 2);
        assertThatThrownBy(() -> packer(dir).build().pack(fewer))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already holds a set of shards part-%05d-%06d.tar")
                .hasMessageContaining("part-00000-000000.tar");
        PackSummary again = packer(dir).overwrite(true).build().pack(fewer);
        assertThat(again.samples()).isEqualTo(20);
        assertThat(tarNames(dir)).containsExactly("part-00000-000000.tar", "part-00001-000000.tar");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly("part-00000-000000.tar",
                    "part-00000-000000.tar.idx", "part-00001-000000.tar", "part-00001-000000.tar.idx",
                    "part.stoker-manifest");
        }
        try (IndexedTarDataset ds = IndexedTarDataset.open(again.shardPaths(), MissingIndex.FAIL)) {
            assertThat(ds.size()).isEqualTo(20);
        }
    }

    @Test
    void aFailedJobLeavesItsMarkSoNothingReadsAsWhole() {
        PackSummary old = packer(dir).build().pack(frame(rows(20, 14), 2));
        List<Row> rows = new ArrayList<>(rows(60, 14));
        Row r = rows.get(45);
        rows.set(45, RowFactory.create(r.get(0), null, r.get(2), r.get(3), r.get(4)));
        assertThatThrownBy(() -> packer(dir).overwrite(true).build().pack(frame(rows, 3)))
                .isInstanceOf(BadSampleException.class);
        // partitions 0 and 1 may have put shards under their names: the mark says the set is not whole
        assertThat(dir.resolve("part.stoker-manifest.part")).exists();
        assertThatThrownBy(() -> TarShardDataset.builder(old.shardPaths()).build())
                .isInstanceOf(dev.stoker.formats.tar.ShardSetException.class)
                .hasMessageContaining("part.stoker-manifest.part");
    }

    @Test
    void pythonsTarfileOpensTheShards() throws Exception {
        Path python = Path.of("/usr/bin/python3");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(python), "no /usr/bin/python3");
        PackSummary summary = packer(dir).maxSamples(10).build().pack(frame(rows(20, 13), 2));
        String script = "import sys, tarfile\n"
                + "for p in sys.argv[1:]:\n"
                + "    with tarfile.open(p) as t:\n"
                + "        for m in t.getmembers():\n"
                + "            print(m.name, m.size, len(t.extractfile(m).read()))\n";
        List<String> command = new ArrayList<>(List.of(python.toString(), "-c", script));
        command.addAll(summary.shardPaths());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(output).isZero();
        List<String> lines = output.lines().toList();
        assertThat(lines).hasSize(80);
        assertThat(lines.subList(0, 4)).extracting(l -> l.split(" ")[0])
                .containsExactly("s00000.jpg", "s00000.bin", "s00000.cls", "s00000.txt");
        assertThat(lines).allSatisfy(l -> {
            String[] f = l.split(" ");
            assertThat(f[1]).isEqualTo(f[2]);
        });
    }
}
