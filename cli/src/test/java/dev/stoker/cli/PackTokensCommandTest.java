package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.mds.MdsDataset;
import dev.stoker.formats.megatron.MegatronDType;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stoker pack --tokenizer: JSONL and Parquet text into Megatron, a flat token file and MDS, read back and compared with the tokenizer's own ids. */
class PackTokensCommandTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path TOKENIZERS = ROOT.resolve("text-tokenizers/src/test/resources/tokenizers");
    private static final Path PARQUET = ROOT.resolve("formats-parquet/src/test/resources/parquet/snappy_dict.parquet");

    @TempDir
    Path dir;

    /** The corpus lines (Unicode, tabs) as JSONL, written by hand as json.dumps would. */
    private List<String> jsonl(Path file) throws Exception {
        String all = Files.readString(TOKENIZERS.resolve("corpus.txt"));
        List<String> texts = List.of(all.substring(0, all.length() - 1).split("\n", -1));
        List<String> lines = new ArrayList<>();
        for (String t : texts) {
            lines.add("{\"id\": " + lines.size() + ", \"text\": \"" + t.replace("\\", "\\\\").replace("\"", "\\\"")
                    .replace("\t", "\\t") + "\"}");
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        return texts;
    }

    @Test
    void jsonlIntoMegatronIsEachDocumentsIdsThenTheEndOfText() throws Exception {
        List<String> texts = jsonl(dir.resolve("train.jsonl"));
        Path prefix = dir.resolve("out/train_text_document");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", dir.resolve("train.jsonl").toString(), "--tokenizer",
                TOKENIZERS.resolve("bpe.json").toString(), "--to", "megatron", "-o", prefix.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("300 documents", "each ended by token 0", "Megatron indexed dataset (uint16)");
        try (Tokenizer tok = Tokenizers.open(TOKENIZERS.resolve("bpe.json"));
             MegatronDataset seqs = MegatronDataset.open(prefix)) {
            assertThat(seqs.dtype()).isEqualTo(MegatronDType.UINT16);
            assertThat(seqs.size()).isEqualTo(300);
            assertThat(seqs.documentCount()).isEqualTo(300);
            for (int i = 0; i < 300; i++) {
                int[] ids = tok.encode(texts.get(i));
                int[] expected = Arrays.copyOf(ids, ids.length + 1); // then <|endoftext|>, id 0
                assertThat(seqs.tokens(i)).as("document %d", i).containsExactly(Arrays.stream(expected).asLongStream().toArray());
            }
        }
    }

    @Test
    void parquetTextIntoAFlatTokenFileThroughSentencePiece() throws Exception {
        Path out = dir.resolve("train.bin");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", PARQUET.toString(), "--tokenizer",
                TOKENIZERS.resolve("sp-bpe.model").toString(), "--to", "tokens", "-o", out.toString(), "--no-eod");
        assertThat(r.exit()).as(r.err()).isZero();
        long nulls;
        try (var rows = dev.stoker.formats.parquet.ParquetDataset.builder(PARQUET).columns("text").build()) {
            nulls = java.util.stream.LongStream.range(0, rows.size()).filter(i -> rows.get(i).isNull("text")).count();
        }
        assertThat(nulls).isPositive();
        assertThat(r.out()).contains((1000 - nulls) + " documents", "skipped " + nulls + " null texts", "uint16");
        List<Integer> expected = new ArrayList<>();
        try (Tokenizer tok = Tokenizers.open(TOKENIZERS.resolve("sp-bpe.model"));
             var rows = dev.stoker.formats.parquet.ParquetDataset.builder(PARQUET).columns("text").build()) {
            for (long i = 0; i < rows.size(); i++) {
                if (rows.get(i).isNull("text")) {
                    continue;
                }
                for (int id : tok.encode(rows.get(i).getString("text"))) {
                    expected.add(id);
                }
            }
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> got = new ArrayList<>();
        while (b.hasRemaining()) {
            got.add(Short.toUnsignedInt(b.getShort()));
        }
        assertThat(got).isEqualTo(expected);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("train.bin"); // no .part left
        }
    }

    @Test
    void jsonlIntoMdsIsOneSamplePerDocument() throws Exception {
        List<String> texts = jsonl(dir.resolve("train.jsonl"));
        Path out = dir.resolve("mds");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", dir.resolve("train.jsonl").toString(), "--tokenizer",
                TOKENIZERS.resolve("unigram.model").toString(), "--to", "mds", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        try (Tokenizer tok = Tokenizers.open(TOKENIZERS.resolve("unigram.model")); MdsDataset mds = MdsDataset.open(out)) {
            assertThat(mds.size()).isEqualTo(300);
            int eos = tok.specialTokens().eos().getAsInt();
            for (int i = 0; i < 300; i += 37) {
                int[] ids = tok.encode(texts.get(i));
                int[] expected = Arrays.copyOf(ids, ids.length + 1);
                expected[ids.length] = eos;
                assertThat(mds.get(i).tensor("tokens").toIntArray()).as("document %d", i).containsExactly(expected);
            }
        }
    }

    @Test
    void aBadLineFailsNamingItAndPublishesNothing() throws Exception {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"text\": \"fine\"}\n{\"text\": 3}\n");
        Path prefix = dir.resolve("out/bad");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", file.toString(), "--tokenizer",
                TOKENIZERS.resolve("bpe.json").toString(), "--to", "megatron", "-o", prefix.toString());
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("line 2", "nothing was published");
        assertThat(Files.exists(MegatronDataset.binPath(prefix))).isFalse();
        assertThat(Files.exists(MegatronDataset.idxPath(prefix))).isFalse();
    }

    @Test
    void tokenTargetsNeedATokenizerAndTarOptionsAreRefused() throws Exception {
        Files.writeString(dir.resolve("a.jsonl"), "{\"text\": \"x\"}\n");
        BenchCommandTest.Run r = BenchCommandTest.run("pack", dir.resolve("a.jsonl").toString(), "--to", "megatron");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("--tokenizer");
        r = BenchCommandTest.run("pack", dir.resolve("a.jsonl").toString(), "--tokenizer",
                TOKENIZERS.resolve("bpe.json").toString(), "--max-samples", "3");
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("--max-samples is not for --tokenizer");
    }
}
