package dev.stoker.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.DataPosition;
import dev.stoker.data.Dataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.text.TokenIdException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Packed rows over examples with bad ids planted: refused on both paths when the vocabulary is given. */
class PackedVocabularyTest {

    record Examples(List<int[]> ids) implements Dataset<int[]> {
        public long size() {
            return ids.size();
        }

        public int[] get(long i) {
            return ids.get((int) i);
        }

        public String name() {
            return "data/sft.jsonl";
        }
    }

    @Test
    void aRowWithABadIdIsRefusedNamingTheExampleOnBothPaths() {
        SplittableRandom r = new SplittableRandom(1806);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 20; trial++) {
                int vocab = 2 + r.nextInt(50_000);
                int maxLength = 16 + r.nextInt(100);
                List<int[]> ids = new ArrayList<>();
                List<Integer> bad = new ArrayList<>();
                for (int e = 0; e < 1 + r.nextInt(80); e++) {
                    int[] ex = r.ints(r.nextInt(maxLength + 20), 0, vocab).toArray();
                    if (ex.length > 0 && r.nextInt(6) == 0) {
                        int at = r.nextInt(Math.min(ex.length, maxLength)); // inside what a row takes of it
                        ex[at] = r.nextBoolean() ? vocab + r.nextInt(1000) : -1 - r.nextInt(5);
                        bad.add(e);
                    }
                    ids.add(ex);
                }
                int[] lengths = ids.stream().mapToInt(a -> a.length).toArray();
                PackedDataset rows = PackedDataset.builder(new Examples(ids), lengths, maxLength).seed(trial)
                        .windowSize(1 + r.nextInt(20)).vocabSize(vocab).build();
                MemorySegment[] out = new MemorySegment[4];
                for (int f = 0; f < 4; f++) {
                    out[f] = arena.allocate(8L * maxLength, 8);
                }
                for (long row = 0; row < rows.size(); row++) {
                    Segment badSegment = rows.segments(row).stream()
                            .filter(s -> bad.contains((int) s.example())).findFirst().orElse(null);
                    long i = row;
                    if (badSegment == null) {
                        rows.get(row);
                        rows.fill(row, out[0], out[1], out[2], out[3]);
                        continue;
                    }
                    for (TokenIdException e : List.of(
                            catchThrowableOfType(TokenIdException.class, () -> rows.get(i)),
                            catchThrowableOfType(TokenIdException.class, () -> rows.fill(i, out[0], out[1], out[2], out[3])))) {
                        assertThat(e.source()).isEqualTo("data/sft.jsonl");
                        assertThat(e.position()).isEqualTo(DataPosition.item("example", badSegment.example()));
                        int[] ex = ids.get((int) badSegment.example());
                        assertThat(e.id()).isEqualTo(ex[e.token()]).matches(id -> id < 0 || id >= vocab);
                        assertThat(e.getMessage()).contains("data/sft.jsonl, example " + badSegment.example(),
                                "outside the vocabulary of " + vocab + " ids");
                    }
                }
            }
        }
    }

    @Test
    void theLoaderReportsTheBadIdOfTheFillPath() {
        List<int[]> ids = new ArrayList<>();
        for (int e = 0; e < 40; e++) {
            ids.add(new int[] {1, 2, 3, e == 17 ? 32_000 : 4});
        }
        int[] lengths = ids.stream().mapToInt(a -> a.length).toArray();
        PackedDataset rows = PackedDataset.builder(new Examples(ids), lengths, 16).vocabSize(32_000).build();
        assertThatThrownBy(() -> {
            try (DataLoader<PackedRow> loader = DataLoader.builder(rows.fillable()).batchSize(2).build()) {
                for (Batch b : loader) {
                    b.close();
                }
            }
        }).satisfies(t -> {
            Throwable c = t;
            while (c != null && !(c instanceof TokenIdException)) {
                c = c.getCause();
            }
            assertThat(c).as("a TokenIdException in the chain of " + t).isNotNull()
                    .hasMessageContaining("example 17: token 3 is id 32000, outside the vocabulary of 32000 ids");
        });
        assertThatThrownBy(() -> PackedDataset.builder(new Examples(ids), lengths, 16).padTokenId(32_000)
                .vocabSize(32_000).build()).hasMessageContaining("pad token 32000");
    }
}
