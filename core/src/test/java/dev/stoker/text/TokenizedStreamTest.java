package dev.stoker.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TokenizedStreamTest {

    /** Code points as ids; counts its batch calls. */
    static final class CodePoints implements Tokenizer {
        final AtomicInteger batches = new AtomicInteger();
        final AtomicInteger texts = new AtomicInteger();

        public int[] encode(String text) {
            texts.incrementAndGet();
            return text.codePoints().toArray();
        }

        @Override
        public List<int[]> encodeBatch(List<String> t) {
            batches.incrementAndGet();
            return Tokenizer.super.encodeBatch(t);
        }

        public String decode(int[] ids) {
            return new String(ids, 0, ids.length);
        }

        public int vocabSize() {
            return 0x110000;
        }

        public OptionalInt tokenId(String token) {
            return OptionalInt.empty();
        }

        public SpecialTokens specialTokens() {
            return SpecialTokens.none();
        }

        public String name() {
            return "code points";
        }
    }

    @Test
    void eachTextGivesItsIdsEncodedInBatches() {
        List<String> texts = IntStream.range(0, 150).mapToObj(i -> "text " + i + " é😀").toList();
        StreamingDataset<String> source = ctx -> SampleStream.of(texts.iterator());
        CodePoints tok = new CodePoints();
        List<int[]> got = new ArrayList<>();
        try (SampleStream<int[]> s = TokenizedStream.of(source, tok).withBatchTexts(64).open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            s.forEachRemaining(got::add);
        }
        assertThat(got).hasSize(150);
        for (int i = 0; i < 150; i++) {
            assertThat(got.get(i)).containsExactly(texts.get(i).codePoints().toArray());
        }
        assertThat(tok.batches.get()).isEqualTo(3); // 64 + 64 + 22
    }

    @Test
    void skipMovesTheTextsWithoutTokenizingThem() {
        List<String> texts = IntStream.range(0, 100).mapToObj(i -> "t" + i).toList();
        StreamingDataset<String> source = ctx -> SampleStream.of(texts.iterator());
        CodePoints tok = new CodePoints();
        try (SampleStream<int[]> s = TokenizedStream.of(source, tok).withBatchTexts(10).open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            s.next(); // encodes t0..t9
            assertThat(s.skip(50)).isEqualTo(50);
            assertThat(s.next()).containsExactly("t51".codePoints().toArray());
            assertThat(tok.texts.get()).isEqualTo(20); // t0..t9, then t51..t60: the skipped texts were not encoded
            assertThat(s.skip(1000)).isEqualTo(9 + 39); // t52..t60 encoded, t61..t99 not
            assertThat(s.hasNext()).isFalse();
        }
    }

    @Test
    void aMapDatasetOfTextsIsEncodedABatchAtATime() {
        List<String> texts = IntStream.range(0, 40).mapToObj(i -> "doc " + i + " ü").toList();
        dev.stoker.data.Dataset<String> source = new dev.stoker.data.Dataset<>() {
            public long size() {
                return texts.size();
            }

            public String get(long i) {
                return texts.get((int) i);
            }
        };
        CodePoints tok = new CodePoints();
        TokenizedDataset ids = TokenizedDataset.of(source, tok);
        assertThat(ids.size()).isEqualTo(40);
        assertThat(ids.get(7)).containsExactly("doc 7 ü".codePoints().toArray());
        List<int[]> batch = ids.getBatch(new long[] {3, 39, 0});
        assertThat(batch).hasSize(3);
        assertThat(batch.get(1)).containsExactly("doc 39 ü".codePoints().toArray());
        assertThat(tok.batches.get()).isEqualTo(1);
    }
}
