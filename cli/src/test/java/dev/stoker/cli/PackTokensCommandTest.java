package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.mds.MdsDataset;
import dev.stoker.formats.megatron.MegatronDType;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.io.PrintWriter;
import java.io.StringWriter;
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

    /**
     * A tokenizer that breaks its promise (ids in [0, vocabSize)): text {@code bad} gets {@code id} in
     * place of its first token; all else is {@code real}'s.
     */
    private record Lying(Tokenizer real, String bad, int id) implements Tokenizer {
        public int[] encode(String text) {
            int[] ids = real.encode(text);
            if (text.equals(bad)) {
                ids = ids.clone();
                ids[0] = id;
            }
            return ids;
        }

        public String decode(int[] ids) {
            return real.decode(ids);
        }

        public int vocabSize() {
            return real.vocabSize();
        }

        public java.util.OptionalInt tokenId(String token) {
            return real.tokenId(token);
        }

        public dev.stoker.text.SpecialTokens specialTokens() {
            return real.specialTokens();
        }

        public String name() {
            return real.name();
        }

        public void close() {
            real.close();
        }
    }

    /** Packs {@code input} through {@code tokenizer} (as if read from bpe.json) into {@code to} at {@code output}. */
    private static BenchCommandTest.Run pack(Path input, Tokenizer tokenizer, String to, Path output) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new PackTokens(input, TOKENIZERS.resolve("bpe.json"), "text", to, output.toString(), true, false,
                true, null, new PrintWriter(out, true), new PrintWriter(err, true)).run(tokenizer);
        return new BenchCommandTest.Run(exit, out.toString(), err.toString());
    }

    /**
     * An id that uint16 cannot hold (a vocabulary under 65,536 writes uint16), or a negative one, is
     * refused naming the input's file and line, the document and the id, for every output, and
     * nothing is published; a uint16 file would have held 70,000 as 4,464 without a word.
     */
    @Test
    void anIdTheOutputCannotHoldIsRefusedNamingTheTextAndNothingIsPublished() throws Exception {
        Path input = dir.resolve("train.jsonl");
        List<String> texts = jsonl(input);
        for (int id : new int[] {70_000, 65_536, -1}) {
            for (String to : List.of("tokens", "megatron", "mds")) {
                Path out = dir.resolve("out-" + to + "-" + id);
                Path target = to.equals("megatron") ? out.resolve("train") : to.equals("tokens") ? out.resolve("t.bin")
                        : out;
                BenchCommandTest.Run r = pack(input, new Lying(Tokenizers.open(TOKENIZERS.resolve("bpe.json")),
                        texts.get(41), id), to, target);
                assertThat(r.exit()).as(to + " " + id).isEqualTo(1);
                assertThat(r.err()).as(to + " " + id).contains(input + ", line 42 (document 41)", "gave id " + id
                        + " (token 0 of the text)", "nothing was published")
                        .contains(id < 0 ? "is negative" : "does not fit the uint16 written (0 to 65535) and is outside"
                                + " the tokenizer's vocabulary of ");
                try (Stream<Path> left = Files.exists(out) ? Files.walk(out) : Stream.empty()) {
                    assertThat(left.filter(Files::isRegularFile)).as(to + " " + id).isEmpty();
                }
            }
        }
    }

    /** An id the dtype holds but the vocabulary does not (a tokenizer reporting the wrong size): refused too. */
    @Test
    void anIdOutsideTheVocabularyIsRefusedNamingTheParquetRow() throws Exception {
        String text;
        long row = 500;
        try (var rows = dev.stoker.formats.parquet.ParquetDataset.builder(PARQUET).columns("text").build()) {
            while (rows.get(row).isNull("text")) {
                row++;
            }
            text = rows.get(row).getString("text");
        }
        Path out = dir.resolve("t.bin");
        try (Tokenizer real = Tokenizers.open(TOKENIZERS.resolve("bpe.json"))) {
            int id = real.vocabSize(); // one past the last
            BenchCommandTest.Run r = pack(PARQUET, new Lying(Tokenizers.open(TOKENIZERS.resolve("bpe.json")), text, id),
                    "tokens", out);
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).contains(PARQUET + ", row group " + row / 128 + ", row " + row % 128
                    + ", column 'text'", "gave id " + id, "is outside the tokenizer's vocabulary of " + id + " ids");
        }
        assertThat(out).doesNotExist();
        assertThat(dir.resolve("t.bin.part")).doesNotExist();
    }

    /** Texts of a folder of JSONL files are named by file and line, past empty files. */
    @Test
    void aTextOfSeveralJsonlFilesIsNamedByItsFileAndLine() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Files.writeString(in.resolve("a.jsonl"), "{\"text\": \"a1\"}\n{\"text\": \"a2\"}\n");
        Files.writeString(in.resolve("b.jsonl"), "");
        Files.writeString(in.resolve("c.jsonl"), "{\"text\": \"c1\"}\n{\"text\": \"c2\"}\n{\"text\": \"c3\"}");
        try (TextSource texts = TextSource.open(in, "text")) {
            List<String> all = new ArrayList<>();
            texts.forEachRemaining(all::add);
            assertThat(all).containsExactly("a1", "a2", "c1", "c2", "c3");
            assertThat(texts.where(0)).isEqualTo(in.resolve("a.jsonl") + ", line 1");
            assertThat(texts.where(1)).isEqualTo(in.resolve("a.jsonl") + ", line 2");
            assertThat(texts.where(2)).isEqualTo(in.resolve("c.jsonl") + ", line 1");
            assertThat(texts.where(4)).isEqualTo(in.resolve("c.jsonl") + ", line 3");
        }
    }
}
