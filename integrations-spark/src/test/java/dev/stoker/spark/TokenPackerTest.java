package dev.stoker.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
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

/** Real Spark on local[2]: texts tokenized per partition into Megatron shards, merged in partition order. */
class TokenPackerTest {
    private static final Path TOKENIZERS = Path.of("..").toAbsolutePath().normalize()
            .resolve("text-tokenizers/src/test/resources/tokenizers");
    private static final StructType SCHEMA = new StructType().add("id", DataTypes.IntegerType)
            .add("text", DataTypes.StringType);

    private static SparkSession spark;
    private static JavaSparkContext jsc;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = SparkSession.builder().master("local[2]").appName("stoker-token-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void textsBecomeOneMegatronDatasetInPartitionOrderTheSameOnEveryRun() throws Exception {
        String all = Files.readString(TOKENIZERS.resolve("corpus.txt"));
        List<String> texts = List.of(all.substring(0, all.length() - 1).split("\n", -1));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            rows.add(RowFactory.create(i, i % 50 == 7 ? null : texts.get(i)));
        }
        Dataset<Row> frame = spark.createDataFrame(jsc.parallelize(rows, 3), SCHEMA);
        TokenPacker packer = TokenPacker.builder(dir.resolve("a").toString())
                .tokenizer(TOKENIZERS.resolve("unigram.model").toString()).name("corpus_text_document").build();
        TokenPacker.Summary summary = packer.pack(frame);
        assertThat(summary.parts()).hasSize(3);
        assertThat(summary.parts().stream().mapToLong(TokenPart::nulls).sum()).isEqualTo(6);
        assertThat(summary.documents()).isEqualTo(texts.size() - 6);

        Path prefix = dir.resolve("a/corpus_text_document");
        try (Tokenizer tok = Tokenizers.open(TOKENIZERS.resolve("unigram.model"));
             MegatronDataset seqs = MegatronDataset.open(prefix)) {
            int eos = tok.specialTokens().eos().getAsInt();
            assertThat(seqs.documentCount()).isEqualTo(texts.size() - 6);
            int d = 0;
            for (int i = 0; i < texts.size(); i++) {
                if (i % 50 == 7) {
                    continue;
                }
                int[] ids = tok.encode(texts.get(i));
                long[] expected = Arrays.stream(Arrays.copyOf(ids, ids.length + 1)).asLongStream().toArray();
                expected[ids.length] = eos;
                assertThat(seqs.tokens(d++)).as("row %d", i).containsExactly(expected);
            }
            assertThat(seqs.tokens(0).length + 0L + summary.tokens()).isGreaterThan(summary.tokens());
        }
        try (Stream<Path> left = Files.list(dir.resolve("a"))) { // the parts are merged and gone, no staging left
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("corpus_text_document.bin", "corpus_text_document.idx");
        }

        TokenPacker.builder(dir.resolve("b").toString()).tokenizer(TOKENIZERS.resolve("unigram.model").toString())
                .name("corpus_text_document").build().pack(frame);
        for (String ext : List.of(".bin", ".idx")) {
            assertThat(Files.readAllBytes(dir.resolve("b/corpus_text_document" + ext)))
                    .as("a second run, %s", ext).isEqualTo(Files.readAllBytes(dir.resolve("a/corpus_text_document" + ext)));
        }
    }
}
