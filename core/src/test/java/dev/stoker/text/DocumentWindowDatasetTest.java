package dev.stoker.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.WorkerContext;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DocumentWindowDatasetTest {
    static final int EOS = 9999;

    /** Random documents, a few empty, some longer than a window. */
    static List<int[]> documents(SplittableRandom r, int count) {
        List<int[]> docs = new ArrayList<>();
        for (int d = 0; d < count; d++) {
            int len = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 8 : 40);
            int[] doc = new int[len];
            for (int k = 0; k < len; k++) {
                doc[k] = d * 1000 + k;
            }
            docs.add(doc);
        }
        return docs;
    }

    /** The reference: all documents and their end tokens in one list, and each token's document. */
    record Flat(long[] tokens, int[] doc) {
        static Flat of(List<int[]> docs, boolean eos) {
            List<Long> t = new ArrayList<>();
            List<Integer> d = new ArrayList<>();
            for (int i = 0; i < docs.size(); i++) {
                for (int x : docs.get(i)) {
                    t.add((long) x);
                    d.add(i);
                }
                if (eos) {
                    t.add((long) EOS);
                    d.add(i);
                }
            }
            return new Flat(t.stream().mapToLong(Long::longValue).toArray(), d.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    @Test
    void windowsAreTheConcatenationCutAsMegatronCutsIt() {
        SplittableRandom r = new SplittableRandom(18);
        for (int trial = 0; trial < 40; trial++) {
            List<int[]> docs = documents(r, 1 + r.nextInt(30));
            boolean eos = r.nextBoolean();
            int seqLen = 1 + r.nextInt(24);
            DocumentWindowDataset.Builder b = DocumentWindowDataset.builder(TokenDocuments.of(docs), seqLen)
                    .positionIds(true).documentIds(true);
            if (eos) {
                b.eos(EOS);
            }
            DocumentWindowDataset ds = b.build();
            Flat flat = Flat.of(docs, eos);
            assertThat(ds.totalTokens()).isEqualTo(flat.tokens.length);
            assertThat(ds.size()).isEqualTo(flat.tokens.length <= 1 ? 0 : (flat.tokens.length - 1) / seqLen);
            for (long i = 0; i < ds.size(); i++) {
                Map<String, Tensor> w = ds.get(i);
                int from = (int) (i * seqLen);
                long[] input = w.get("input").toLongArray();
                long[] target = w.get("target").toLongArray();
                long[] pos = w.get("position_ids").toLongArray();
                long[] ids = w.get("document_ids").toLongArray();
                int docNo = 0;
                int position = 0;
                for (int k = 0; k < seqLen; k++) {
                    assertThat(input[k]).as("trial %d window %d input %d", trial, i, k).isEqualTo(flat.tokens[from + k]);
                    assertThat(target[k]).as("trial %d window %d target %d", trial, i, k).isEqualTo(flat.tokens[from + k + 1]);
                    if (k > 0 && flat.doc[from + k] != flat.doc[from + k - 1]) {
                        docNo++;
                        position = 0;
                    }
                    assertThat(pos[k]).as("trial %d window %d position %d", trial, i, k).isEqualTo(position++);
                    assertThat(ids[k]).as("trial %d window %d document %d", trial, i, k).isEqualTo(docNo);
                }
            }
        }
    }

    @Test
    void theStreamGivesTheMapDatasetsWindowsAndSkipsToTheSamePlace() {
        SplittableRandom r = new SplittableRandom(7);
        for (int trial = 0; trial < 30; trial++) {
            List<int[]> docs = documents(r, 1 + r.nextInt(40));
            int seqLen = 1 + r.nextInt(16);
            DocumentWindowDataset map = DocumentWindowDataset.builder(TokenDocuments.of(docs), seqLen).eos(EOS)
                    .positionIds(true).documentIds(true).build();
            StreamingDataset<int[]> source = ctx -> SampleStream.of(docs.iterator());
            DocumentWindowStream stream = DocumentWindowStream.of(source, seqLen, EOS).withBoundaries(true, true);
            WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, 1);
            List<Map<String, Tensor>> got = new ArrayList<>();
            try (SampleStream<TokenRun> runs = stream.open(ctx)) {
                while (runs.hasNext()) {
                    TokenRun run = runs.next();
                    got.add(new WindowFields(seqLen, true, true).heapSample(slot -> stream.fill(run, slot)));
                }
            }
            assertThat((long) got.size()).as("trial %d", trial).isEqualTo(map.size());
            for (int i = 0; i < got.size(); i++) {
                for (String f : List.of("input", "target", "position_ids", "document_ids")) {
                    assertThat(got.get(i).get(f).toLongArray()).as("trial %d window %d %s", trial, i, f)
                            .containsExactly(map.get(i).get(f).toLongArray());
                }
            }
            int skip = got.isEmpty() ? 0 : r.nextInt(got.size() + 1);
            try (SampleStream<TokenRun> runs = stream.open(ctx)) {
                assertThat(runs.skip(skip)).isEqualTo(skip);
                for (int i = skip; i < got.size(); i++) {
                    TokenRun run = runs.next();
                    Map<String, Tensor> w = new WindowFields(seqLen, true, true).heapSample(slot -> stream.fill(run, slot));
                    assertThat(w.get("input").toLongArray()).as("after skipping %d, window %d", skip, i)
                            .containsExactly(got.get(i).get("input").toLongArray());
                    assertThat(w.get("position_ids").toLongArray()).containsExactly(got.get(i).get("position_ids").toLongArray());
                }
                assertThat(runs.hasNext()).isFalse();
            }
        }
    }

    @Test
    void tooFewTokensMakeNoWindow() {
        assertThat(DocumentWindowDataset.builder(TokenDocuments.of(List.of(new int[] {1, 2})), 2).build().size()).isZero();
        assertThat(DocumentWindowDataset.builder(TokenDocuments.of(List.of(new int[] {1, 2})), 2).eos(0).build().size())
                .isEqualTo(1);
        assertThat(DocumentWindowDataset.builder(TokenDocuments.of(List.of()), 2).build().size()).isZero();
    }
}
