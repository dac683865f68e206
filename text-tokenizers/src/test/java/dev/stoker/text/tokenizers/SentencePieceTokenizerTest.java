package dev.stoker.text.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SentencePieceTokenizerTest {

    @ParameterizedTest
    @ValueSource(strings = {"unigram", "sp-bpe", "sp-word", "sp-char", "sp-bpe-unk"})
    void idsAreThoseOfPythonsSentencePiece(String name) throws IOException {
        List<String> corpus = Fixtures.corpus();
        List<int[]> expected = Fixtures.ids(name);
        SentencePieceTokenizer sp = SentencePieceTokenizer.open(Fixtures.file(name + ".model"));
        for (int i = 0; i < corpus.size(); i++) {
            assertThat(sp.encode(corpus.get(i))).as("line %d: %s", i + 1, corpus.get(i)).containsExactly(expected.get(i));
        }
    }

    @Test
    void wordAndCharModelsCutAsSentencePieceDoes() throws IOException {
        SentencePieceTokenizer word = SentencePieceTokenizer.open(Fixtures.file("sp-word.model"));
        int unk = word.specialTokens().unk().orElseThrow();
        int the = word.tokenId("\u2581the").orElseThrow();
        int model = word.tokenId("\u2581model").orElseThrow();
        // one id a word; spaces collapse; two unknown words in a row are one unknown id, as Python gives
        assertThat(word.encode("the  model")).containsExactly(the, model);
        assertThat(word.encode("the qqq zzz model")).containsExactly(the, unk, model);
        assertThat(word.decode(word.encode("the model"))).isEqualTo("the model");
        SentencePieceTokenizer chars = SentencePieceTokenizer.open(Fixtures.file("sp-char.model"));
        int tok = chars.tokenId("tok").orElseThrow(); // a user-defined symbol, taken whole
        int t = chars.tokenId("t").orElseThrow();
        assertThat(chars.encode("token")).startsWith(chars.tokenId("\u2581").orElseThrow(), tok);
        assertThat(chars.encode("tot")).containsExactly(chars.tokenId("\u2581").orElseThrow(),
                t, chars.tokenId("o").orElseThrow(), t);
        assertThat(chars.toString()).contains("char");
    }

    @Test
    void specialIdsComeFromTheTrainerSpec() throws IOException {
        SentencePieceTokenizer sp = SentencePieceTokenizer.open(Fixtures.file("sp-bpe.model"));
        assertThat(sp.specialTokens().unk()).hasValue(0);
        assertThat(sp.specialTokens().bos()).hasValue(1);
        assertThat(sp.specialTokens().eos()).hasValue(2);
        assertThat(sp.specialTokens().pad()).isEmpty();
        assertThat(sp.tokenId("</s>")).hasValue(2);
        assertThat(sp.vocabSize()).isEqualTo(400);
    }

    @Test
    void decodeGivesTheTextBackWithByteFallback() throws IOException {
        SentencePieceTokenizer sp = SentencePieceTokenizer.open(Fixtures.file("sp-bpe.model"));
        assertThat(sp.decode(sp.encode("the model 日本語 😀"))).isEqualTo("the model 日本語 😀");
        assertThatThrownBy(() -> sp.decode(new int[] {400})).hasMessageContaining("id 400 at 0");
    }

    @Test
    void emptyAndBlankTextsHaveNoIds() throws IOException {
        for (String name : List.of("unigram.model", "sp-bpe.model")) {
            SentencePieceTokenizer sp = SentencePieceTokenizer.open(Fixtures.file(name));
            assertThat(sp.encode("")).isEmpty();
            assertThat(sp.encode("    ")).as(name).isEmpty();
        }
        // identity normalization keeps the tab (Python: ['▁', '<0x09>']); NFKC makes it a space
        assertThat(SentencePieceTokenizer.open(Fixtures.file("sp-bpe.model")).encode("   \t ")).containsExactly(280, 12);
        assertThat(SentencePieceTokenizer.open(Fixtures.file("unigram.model")).encode("   \t ")).isEmpty();
    }

    @Test
    void damagedModelsAreRefusedNamingTheFile(@TempDir Path dir) throws IOException {
        byte[] good = Files.readAllBytes(Fixtures.file("sp-bpe.model"));
        SplittableRandom random = new SplittableRandom(18);
        Path bad = dir.resolve("bad.model");
        int refused = 0;
        for (int trial = 0; trial < 300; trial++) {
            byte[] b = good.clone();
            if (trial % 3 == 0) {
                b = java.util.Arrays.copyOf(b, random.nextInt(b.length));
            } else {
                for (int k = 0; k < 1 + random.nextInt(8); k++) {
                    b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                }
            }
            Files.write(bad, b);
            try {
                SentencePieceTokenizer sp = SentencePieceTokenizer.open(bad);
                sp.encode("the model 日本語 😀 café"); // a model that opens still encodes without failing
            } catch (IOException e) {
                refused++;
                assertThat(e).hasMessageContaining(bad.toString());
            }
        }
        assertThat(refused).isGreaterThan(50);
    }
}
