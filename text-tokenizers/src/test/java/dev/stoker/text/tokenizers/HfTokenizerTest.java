package dev.stoker.text.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HfTokenizerTest {

    @ParameterizedTest
    @ValueSource(strings = {"bpe", "wordpiece", "bpe rust"})
    void idsAreThoseOfPythonsTokenizers(String which) throws IOException {
        String name = which.split(" ")[0];
        List<String> corpus = new java.util.ArrayList<>(Fixtures.corpus());
        List<int[]> expected = new java.util.ArrayList<>(Fixtures.ids(name));
        try (HfTokenizer tok = HfTokenizer.open(Fixtures.file(name + ".json"), !which.endsWith("rust"))) {
            if (name.equals("bpe")) {
                assertThat(tok.toString()).contains(which.endsWith("rust") ? "BPE, 827 ids)" : "byte-level BPE in Java");
            }
            for (int i = 0; i < corpus.size(); i++) {
                assertThat(tok.encode(corpus.get(i))).as("line %d: %s", i + 1, corpus.get(i)).containsExactly(expected.get(i));
            }
            List<int[]> batch = tok.encodeBatch(corpus);
            for (int i = 0; i < corpus.size(); i++) {
                assertThat(batch.get(i)).as("batched line %d", i + 1).containsExactly(expected.get(i));
            }
        }
    }

    @Test
    void textsHoldingAnAddedTokenGoToTheRustLibrary() throws IOException {
        try (HfTokenizer inJava = HfTokenizer.open(Fixtures.file("bpe.json"));
             HfTokenizer rust = HfTokenizer.open(Fixtures.file("bpe.json"), false)) {
            String text = "the model<|endoftext|>data";
            assertThat(inJava.encode(text)).containsExactly(rust.encode(text)).contains(0);
            var r = new SplittableRandom(5);
            List<String> corpus = Fixtures.corpus();
            for (int i = 0; i < 300; i++) { // random splices of the corpus: odd whitespace runs, cut words
                String a = corpus.get(r.nextInt(corpus.size()));
                String b = corpus.get(r.nextInt(corpus.size()));
                // cut at code points: a lone surrogate is no text (Java would send '?', the binding something else)
                String t = a.substring(a.offsetByCodePoints(0, r.nextInt(a.codePointCount(0, a.length()) + 1)))
                        + " \n\n  \u00a0" + b.substring(0, b.offsetByCodePoints(0, r.nextInt(b.codePointCount(0, b.length()) + 1)));
                assertThat(inJava.encode(t)).as("%s: %s", t.replace("\n", "\\n"), Arrays.toString(rust.encode(t)))
                        .containsExactly(rust.encode(t));
            }
        }
    }

    @Test
    void specialTokensAndVocabularyComeFromTheFile() throws IOException {
        try (HfTokenizer bpe = HfTokenizer.open(Fixtures.file("bpe.json"));
             HfTokenizer wp = HfTokenizer.open(Fixtures.file("wordpiece.json"))) {
            assertThat(bpe.vocabSize()).isEqualTo(827); // Python: get_vocab_size(); the trainer stopped short of 1000
            assertThat(bpe.specialTokens().eos()).hasValue(0); // <|endoftext|>, trained first
            assertThat(bpe.tokenId("<|endoftext|>")).hasValue(0);
            assertThat(wp.specialTokens().eos()).isEqualTo(wp.tokenId("[SEP]"));
            assertThat(wp.specialTokens().unk()).isEqualTo(wp.tokenId("[UNK]"));
            assertThat(wp.tokenId("no such token")).isEmpty();
            // the template adds [CLS] ... [SEP] in Python's default encode; ours adds nothing
            assertThat(wp.encode("the")).doesNotContain(wp.tokenId("[CLS]").getAsInt());
        }
    }

    @Test
    void decodeGivesTheTextBackForByteLevelBpe() throws IOException {
        try (HfTokenizer tok = HfTokenizer.open(Fixtures.file("bpe.json"))) {
            for (String line : Fixtures.corpus().subList(0, 50)) {
                assertThat(tok.decode(tok.encode(line))).isEqualTo(line);
            }
            assertThatThrownBy(() -> tok.decode(new int[] {5, 827})).hasMessageContaining("id 827 at 1");
        }
    }

    @Test
    void aBrokenFileIsNamed(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("tokenizer.json");
        Files.writeString(bad, "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, \"merges\": [");
        assertThatThrownBy(() -> HfTokenizer.open(bad)).isInstanceOf(IOException.class).hasMessageContaining(bad.toString());
        Files.writeString(bad, "[1, 2]");
        assertThatThrownBy(() -> HfTokenizer.open(bad)).hasMessageContaining("not a tokenizer.json");
    }
}
