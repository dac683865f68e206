package dev.stoker.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.loader.SamplePolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Pretraining windows from texts tokenized in the workers, where some texts are bad lines (their stream throws a
 * DataFormatException) and some give ids outside the vocabulary: a loader that skips bad samples leaves out
 * exactly those documents, the windows are those of the good documents laid end to end, and a run stopped
 * anywhere and restored delivers what an uninterrupted one does (the bad ones count as one sample each, in the
 * run and in the resume's skip).
 */
class BadDocumentResumeTest {
    static final int VOCAB = 1000;
    static final int EOS = VOCAB - 1;
    static final int SEQ = 8;
    static final Function<Batch, String> DESCRIBE = b -> b.epoch() + "/" + b.index() + "="
            + Arrays.toString(b.tensor("input").toLongArray());

    /** Texts of ids spelled out; null: a line that cannot be read. */
    static List<String> texts(SplittableRandom r) {
        List<String> out = new ArrayList<>();
        for (int d = 0; d < 150; d++) {
            int roll = r.nextInt(10);
            if (roll == 0) {
                out.add(null);
                continue;
            }
            int[] ids = r.ints(r.nextInt(0, 20), 0, EOS).toArray();
            if (roll == 1 && ids.length > 0) {
                ids[r.nextInt(ids.length)] = VOCAB + r.nextInt(50); // a tokenizer of another vocabulary
            }
            out.add(TokenIdCheckTest.Spelled.spell(ids));
        }
        return out;
    }

    /** Each worker's share of the texts, a bad line throwing from next() (after the stream moved past it). */
    static StreamingDataset<String> source(List<String> texts) {
        return ctx -> {
            List<String> mine = new ArrayList<>();
            for (int i = ctx.globalWorkerId(); i < texts.size(); i += ctx.globalWorkers()) {
                mine.add(texts.get(i));
            }
            return new SampleStream<>() {
                int at;

                public boolean hasNext() {
                    return at < mine.size();
                }

                public String next() {
                    if (at >= mine.size()) {
                        throw new NoSuchElementException();
                    }
                    String t = mine.get(at++);
                    if (t == null) {
                        throw new DataFormatException("texts.jsonl", DataPosition.line(at), "not JSON");
                    }
                    return t;
                }

                public void close() {
                }
            };
        };
    }

    /** Tokenized in the workers (the tokenizer's check), or pre-tokenized ids checked by the windows (batchTexts 0). */
    static DocumentWindowStream windows(List<String> texts, int batchTexts) {
        TokenIdCheckTest.Spelled tok = new TokenIdCheckTest.Spelled(VOCAB);
        if (batchTexts == 0) {
            StreamingDataset<String> spelled = source(texts);
            StreamingDataset<int[]> ids = ctx -> {
                SampleStream<String> in = spelled.open(ctx);
                return new SampleStream<>() {
                    public boolean hasNext() {
                        return in.hasNext();
                    }

                    public int[] next() {
                        return tok.encode(in.next());
                    }

                    public void close() {
                        in.close();
                    }
                };
            };
            return DocumentWindowStream.of(ids, SEQ, EOS).withVocabSize(VOCAB);
        }
        return DocumentWindowStream.of(TokenizedStream.of(source(texts), tok).withBatchTexts(batchTexts), SEQ, EOS);
    }

    static DataLoader<TokenRun> loader(List<String> texts, int workers, int batchTexts) {
        return DataLoader.builder(windows(texts, batchTexts)).batchSize(3).seed(2).numWorkers(workers)
                .onBadSample(SamplePolicy.SKIP).build();
    }

    @Test
    void skippedDocumentsLeaveTheWindowsOfTheGoodOnes() {
        SplittableRandom r = new SplittableRandom(1812);
        List<String> texts = texts(r);
        List<Long> good = new ArrayList<>(); // the good documents end to end, each with its end token
        int bad = 0;
        for (String t : texts) {
            int[] ids = t == null ? null : new TokenIdCheckTest.Spelled(VOCAB).encode(t);
            if (ids == null || TokenIds.firstOutside(ids, 0, ids.length, VOCAB) >= 0) {
                bad++;
                continue;
            }
            Arrays.stream(ids).forEach(id -> good.add((long) id));
            good.add((long) EOS);
        }
        assertThat(bad).isGreaterThan(10);
        int windows = (good.size() - 1) / SEQ;
        List<Long> expected = new ArrayList<>();
        for (int w = 0; w < windows; w++) {
            expected.addAll(good.subList(w * SEQ, w * SEQ + SEQ));
        }
        for (int batchTexts : new int[] {0, 1, 7}) {
            List<Long> inputs = new ArrayList<>();
            try (DataLoader<TokenRun> loader = loader(texts, 0, batchTexts)) {
                for (Batch b : loader) {
                    try (b) {
                        Arrays.stream(b.tensor("input").toLongArray()).forEach(inputs::add);
                    }
                }
                assertThat(loader.stats().skippedSamples()).isEqualTo(bad);
            }
            assertThat(inputs).as("%d texts per encode call (0: pre-tokenized)", batchTexts).isEqualTo(expected);
        }
    }

    @Test
    void aRunStoppedAnywhereResumesPastTheBadDocuments() {
        SplittableRandom r = new SplittableRandom(1813);
        for (int trial = 0; trial < 12; trial++) {
            List<String> texts = texts(r);
            int workers = trial % 3;
            int batchTexts = r.nextInt(10); // 0: pre-tokenized, checked by the windows
            Supplier<DataLoader<TokenRun>> make = () -> loader(texts, workers, batchTexts);
            List<String> expected;
            try (DataLoader<TokenRun> a = make.get()) {
                expected = ResumeRuns.uninterrupted(a, 2, DESCRIBE);
            }
            int stop = r.nextInt(expected.size() + 1);
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<TokenRun> b = make.get()) {
                state = ResumeRuns.stopAfter(b, 2, stop, DESCRIBE, seen);
            }
            try (DataLoader<TokenRun> c = make.get()) {
                ResumeRuns.resume(c, state, 2, DESCRIBE, seen, () -> { });
            }
            assertThat(seen).as("trial %d: %d workers, stopped after %d", trial, workers, stop).isEqualTo(expected);
        }
    }
}
