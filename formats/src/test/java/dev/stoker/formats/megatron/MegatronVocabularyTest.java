package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.DataPosition;
import dev.stoker.text.DocumentWindowDataset;
import dev.stoker.text.TokenIdException;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code .bin} whose ids do not fit the model's vocabulary (uint16 tokens of another tokenizer): windows and
 * padded rows given the vocabulary refuse them, naming the file, the document or sequence and the id.
 */
class MegatronVocabularyTest {
    static final int VOCAB = 50_257;

    @TempDir
    Path dir;

    @Test
    void idsPastTheVocabularyAreRefusedWhereTheyAreRead() throws Exception {
        SplittableRandom r = new SplittableRandom(1807);
        List<int[]> docs = new ArrayList<>();
        Path prefix = dir.resolve("docs");
        try (MegatronWriter out = MegatronWriter.create(prefix, MegatronDType.UINT16)) {
            for (int d = 0; d < 120; d++) {
                int[] doc = r.ints(r.nextInt(1, 60), 0, VOCAB).toArray();
                if (r.nextInt(8) == 0) {
                    doc[r.nextInt(doc.length)] = r.nextInt(VOCAB, 65_536);
                }
                out.addSequence(doc);
                out.endDocument();
                docs.add(doc);
            }
            out.commit();
        }
        try (MegatronDataset seqs = MegatronDataset.open(prefix)) {
            PaddedSequences rows = seqs.padded(64, 0).withVocabSize(VOCAB);
            DocumentWindowDataset windows = DocumentWindowDataset.builder(new MegatronDocuments(seqs), 32).eos(0)
                    .vocabSize(VOCAB).build();
            int refused = 0;
            for (int d = 0; d < docs.size(); d++) {
                int[] doc = docs.get(d);
                int bad = -1;
                for (int k = 0; k < doc.length && bad < 0; k++) {
                    bad = doc[k] >= VOCAB ? k : -1;
                }
                int i = d;
                if (bad < 0) {
                    rows.get(d);
                    continue;
                }
                refused++;
                TokenIdException e = catchThrowableOfType(TokenIdException.class, () -> rows.get(i));
                assertThat(e.source()).isEqualTo(MegatronDataset.binPath(prefix).toString());
                assertThat(e.position()).isEqualTo(DataPosition.item("sequence", d));
                assertThat(e.token()).isEqualTo(bad);
                assertThat(e.id()).isEqualTo(doc[bad]);
                assertThat(e.getMessage()).contains("sequence " + d + ": token " + bad + " is id " + doc[bad]
                        + ", outside the vocabulary of 50257 ids");
            }
            assertThat(refused).isPositive();
            int failed = 0;
            for (long w = 0; w < windows.size(); w++) {
                long window = w;
                try {
                    windows.get(w);
                } catch (TokenIdException e) {
                    failed++;
                    int d = (int) ((DataPosition.Item) e.position()).index();
                    assertThat(e.position()).isEqualTo(DataPosition.item("document", d));
                    assertThat(docs.get(d)[e.token()]).isEqualTo((int) e.id()).isGreaterThanOrEqualTo(VOCAB);
                    assertThat(e.source()).isEqualTo(MegatronDataset.binPath(prefix).toString());
                }
            }
            assertThat(failed).isPositive();
            // the fill path through the loader: the same check on what was widened into batch memory
            int firstBad = 0;
            while (java.util.Arrays.stream(docs.get(firstBad)).allMatch(t -> t < VOCAB)) {
                firstBad++;
            }
            Throwable thrown = null;
            try (DataLoader<PaddedSequence> loader = DataLoader.builder(rows).batchSize(1).build()) {
                for (Batch b : loader) {
                    b.close();
                }
            } catch (RuntimeException t) {
                thrown = t;
            }
            while (thrown != null && !(thrown instanceof TokenIdException)) {
                thrown = thrown.getCause();
            }
            assertThat(thrown).isInstanceOf(TokenIdException.class);
            assertThat(((TokenIdException) thrown).position()).isEqualTo(DataPosition.item("sequence", firstBad));
        }
    }
}
