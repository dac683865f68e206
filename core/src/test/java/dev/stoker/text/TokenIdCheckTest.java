package dev.stoker.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.DataPosition;
import dev.stoker.data.Dataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the vocabulary check: seeded random token streams with bad ids planted (negative, the
 * vocabulary's size, far past it), through the check itself and each tokenized path; every bad id is found,
 * at its place, and no good one is refused.
 */
class TokenIdCheckTest {
    static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    /** A bad id for a vocabulary of {@code vocab}: negative, the size itself, or past it. */
    static int badId(SplittableRandom r, int vocab) {
        return switch (r.nextInt(4)) {
            case 0 -> -1 - r.nextInt(1000);
            case 1 -> Integer.MIN_VALUE;
            case 2 -> vocab;
            default -> vocab + 1 + r.nextInt(Integer.MAX_VALUE - vocab - 1);
        };
    }

    /** Random documents of ids in [0, vocab), each bad with probability 1/5 at one or more random places. */
    record Planted(List<int[]> docs, int vocab) {
        static Planted of(SplittableRandom r, int count) {
            int vocab = 1 + r.nextInt(r.nextBoolean() ? 300 : 70_000);
            List<int[]> docs = new ArrayList<>();
            for (int d = 0; d < count; d++) {
                int[] doc = r.ints(r.nextInt(r.nextBoolean() ? 5 : 200), 0, vocab).toArray();
                if (doc.length > 0 && r.nextInt(5) == 0) {
                    for (int bad = 1 + r.nextInt(3); bad > 0; bad--) {
                        doc[r.nextInt(doc.length)] = badId(r, vocab);
                    }
                }
                docs.add(doc);
            }
            return new Planted(docs, vocab);
        }

        /** The first bad id's place in document d, or -1, found the slow way. */
        int firstBad(int d) {
            int[] doc = docs.get(d);
            for (int k = 0; k < doc.length; k++) {
                if (doc[k] < 0 || doc[k] >= vocab) {
                    return k;
                }
            }
            return -1;
        }
    }

    @Test
    void theCheckFindsTheFirstBadIdOfArraysAndSegments() {
        SplittableRandom r = new SplittableRandom(1801);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 300; trial++) {
                Planted p = Planted.of(r, 1);
                int[] doc = p.docs().get(0);
                int from = doc.length == 0 ? 0 : r.nextInt(doc.length);
                int to = from + r.nextInt(doc.length - from + 1);
                int want = -1;
                for (int k = from; k < to && want < 0; k++) {
                    want = doc[k] < 0 || doc[k] >= p.vocab() ? k : -1;
                }
                assertThat(TokenIds.firstOutside(doc, from, to, p.vocab())).isEqualTo(want);
                MemorySegment longs = arena.allocate(8L * doc.length + 8, 8);
                for (int k = 0; k < doc.length; k++) {
                    longs.setAtIndex(ValueLayout.JAVA_LONG, k + 1, doc[k]); // at byte 8: an offset
                }
                assertThat(TokenIds.firstOutside(longs, 8L + 8L * from, to - from, p.vocab()))
                        .isEqualTo(want < 0 ? -1 : want - from);
            }
        }
        assertThat(TokenIds.firstOutside(new int[] {0, 9, 10}, 0, 3, 10)).isEqualTo(2);
        assertThat(TokenIds.firstOutside(new int[] {0, 9, 9}, 0, 3, 10)).isEqualTo(-1);
        assertThat(TokenIds.firstOutside(new int[] {Integer.MAX_VALUE}, 0, 1, Integer.MAX_VALUE)).isZero();
        assertThatThrownBy(() -> TokenIds.requireVocabSize(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Texts are the ids written out ("3 17 5"); the tokenizer reads them back, bad ones included. */
    static final class Spelled implements Tokenizer {
        final int vocab;

        Spelled(int vocab) {
            this.vocab = vocab;
        }

        static String spell(int[] ids) {
            StringBuilder b = new StringBuilder();
            for (int id : ids) {
                b.append(b.isEmpty() ? "" : " ").append(id);
            }
            return b.toString();
        }

        public int[] encode(String text) {
            return text.isEmpty() ? new int[0] : Arrays.stream(text.split(" ")).mapToInt(Integer::parseInt).toArray();
        }

        public String decode(int[] ids) {
            return spell(ids);
        }

        public int vocabSize() {
            return vocab;
        }

        public OptionalInt tokenId(String token) {
            return OptionalInt.empty();
        }

        public SpecialTokens specialTokens() {
            return SpecialTokens.none();
        }

        public String name() {
            return "spelled ids";
        }
    }

    static Dataset<String> texts(List<int[]> docs) {
        return new Dataset<>() {
            public long size() {
                return docs.size();
            }

            public String get(long i) {
                return Spelled.spell(docs.get((int) i));
            }

            public String name() {
                return "data/texts.jsonl";
            }
        };
    }

    static void assertNames(TokenIdException e, Planted p, String unit, int d) {
        int k = p.firstBad(d);
        assertThat(e.position()).isEqualTo(DataPosition.item(unit, d));
        assertThat(e.token()).isEqualTo(k);
        assertThat(e.id()).isEqualTo(p.docs().get(d)[k]);
        assertThat(e.vocabSize()).isEqualTo(p.vocab());
        assertThat(e.getMessage()).contains(unit + " " + d, "token " + k, "id " + p.docs().get(d)[k],
                p.vocab() + " ids");
    }

    @Test
    void aTokenizedDatasetRefusesTheTextsWithBadIdsAndNoOther() {
        SplittableRandom r = new SplittableRandom(1802);
        for (int trial = 0; trial < 30; trial++) {
            Planted p = Planted.of(r, 1 + r.nextInt(40));
            TokenizedDataset ids = TokenizedDataset.of(texts(p.docs()), new Spelled(p.vocab()));
            for (int d = 0; d < p.docs().size(); d++) {
                int i = d;
                if (p.firstBad(d) < 0) {
                    assertThat(ids.get(d)).containsExactly(p.docs().get(d));
                } else {
                    TokenIdException e = catchThrowableOfType(TokenIdException.class, () -> ids.get(i));
                    assertThat(e.source()).isEqualTo("data/texts.jsonl");
                    assertNames(e, p, "text", d);
                }
            }
            long[] all = r.longs(p.docs().size(), 0, p.docs().size()).toArray();
            boolean anyBad = Arrays.stream(all).anyMatch(i -> p.firstBad((int) i) >= 0);
            if (anyBad) {
                assertThatThrownBy(() -> ids.getBatch(all)).isInstanceOf(TokenIdException.class);
            } else {
                assertThat(ids.getBatch(all)).hasSize(all.length);
            }
        }
    }

    @Test
    void aTokenizedStreamHandsOutTheTextsBeforeABadOneThenNamesIt() {
        SplittableRandom r = new SplittableRandom(1803);
        for (int trial = 0; trial < 30; trial++) {
            Planted p = Planted.of(r, 1 + r.nextInt(40));
            List<String> spelled = p.docs().stream().map(Spelled::spell).toList();
            StreamingDataset<String> source = new StreamingDataset<>() {
                public SampleStream<String> open(WorkerContext c) {
                    return SampleStream.of(spelled.iterator());
                }

                public String name() {
                    return "data/texts.jsonl";
                }
            };
            int skip = r.nextInt(3);
            int firstBad = -1;
            for (int d = skip; d < p.docs().size() && firstBad < 0; d++) {
                firstBad = p.firstBad(d) >= 0 ? d : -1;
            }
            try (SampleStream<int[]> s = TokenizedStream.of(source, new Spelled(p.vocab()))
                    .withBatchTexts(1 + r.nextInt(8)).open(ONE)) {
                int d = (int) s.skip(skip);
                for (; s.hasNext() && d != firstBad; d++) {
                    assertThat(s.next()).containsExactly(p.docs().get(d));
                }
                if (firstBad < 0) {
                    assertThat(s.hasNext()).isFalse();
                } else {
                    TokenIdException e = catchThrowableOfType(TokenIdException.class, s::next);
                    assertNames(e, p, "worker 0's text", firstBad);
                }
            }
        }
    }

    @Test
    void documentWindowsRefuseABadIdOfTheirDocumentsWhenGivenTheVocabulary() {
        SplittableRandom r = new SplittableRandom(1804);
        for (int trial = 0; trial < 30; trial++) {
            Planted p = Planted.of(r, 1 + r.nextInt(30));
            int seqLen = 1 + r.nextInt(64);
            DocumentWindowDataset windows = DocumentWindowDataset.builder(TokenDocuments.of(p.docs()), seqLen)
                    .eos(p.vocab() - 1).vocabSize(p.vocab()).positionIds(r.nextBoolean()).build();
            DocumentWindowDataset unchecked = DocumentWindowDataset.builder(TokenDocuments.of(p.docs()), seqLen)
                    .eos(p.vocab() - 1).build();
            List<long[]> flat = new ArrayList<>(); // (token, document) of the concatenation, end tokens included
            for (int d = 0; d < p.docs().size(); d++) {
                for (int t : p.docs().get(d)) {
                    flat.add(new long[] {t, d});
                }
                flat.add(new long[] {p.vocab() - 1, d});
            }
            for (long w = 0; w < windows.size(); w++) {
                int firstBad = -1; // the first bad token of the window's input, then of its target
                for (int k = (int) (w * seqLen); k <= (w + 1) * seqLen && firstBad < 0; k++) {
                    long id = flat.get(k)[0];
                    firstBad = id < 0 || id >= p.vocab() ? k : -1;
                }
                long window = w;
                if (firstBad < 0) {
                    assertThat(windows.get(w).get("input").toLongArray())
                            .containsExactly(unchecked.get(w).get("input").toLongArray());
                } else {
                    TokenIdException e = catchThrowableOfType(TokenIdException.class, () -> windows.get(window));
                    assertThat(e).as("window %d", w).isNotNull();
                    assertThat(e.source()).isEqualTo(p.docs().size() + " documents in memory");
                    int d = (int) flat.get(firstBad)[1];
                    assertThat(e.position()).isEqualTo(DataPosition.item("document", d));
                    int start = 0;
                    while (flat.get(start)[1] != d) {
                        start++;
                    }
                    assertThat(e.token()).isEqualTo(firstBad - start);
                    assertThat(e.id()).isEqualTo(flat.get(firstBad)[0]);
                }
            }
            int vocab = p.vocab();
            assertThatThrownBy(() -> DocumentWindowDataset.builder(TokenDocuments.of(p.docs()), 4).eos(vocab)
                    .vocabSize(vocab).build()).hasMessageContaining("end-of-text token " + vocab);
        }
    }

    @Test
    void aDocumentWindowStreamRefusesABadIdOfAWorkersDocument() {
        SplittableRandom r = new SplittableRandom(1805);
        for (int trial = 0; trial < 30; trial++) {
            Planted p = Planted.of(r, 1 + r.nextInt(30));
            StreamingDataset<int[]> docs = c -> SampleStream.of(p.docs().iterator());
            int firstBad = -1;
            for (int d = 0; d < p.docs().size() && firstBad < 0; d++) {
                firstBad = p.firstBad(d) >= 0 ? d : -1;
            }
            DocumentWindowStream windows = DocumentWindowStream.of(docs, 1 + r.nextInt(16), 0).withVocabSize(p.vocab());
            List<TokenRun> got = new ArrayList<>();
            try (SampleStream<TokenRun> s = windows.open(new WorkerContext(1, 2, 3, 4, 0, 0))) {
                if (firstBad < 0) {
                    s.forEachRemaining(got::add);
                    assertThat(got).allSatisfy(run -> assertThat(TokenIds.firstOutside(run.tokens(), 0, run.tokens().length,
                            p.vocab())).isEqualTo(-1));
                } else {
                    TokenIdException e = catchThrowableOfType(TokenIdException.class, () -> s.forEachRemaining(got::add));
                    assertNames(e, p, "rank 3 worker 1's document", firstBad);
                }
            }
        }
    }
}
