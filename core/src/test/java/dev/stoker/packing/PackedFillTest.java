package dev.stoker.packing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

class PackedFillTest {

    /**
     * Rows of whole examples, and of examples split across rows (a piece that starts inside, or
     * past, its prompt), boundaries masked or not: the fill path writes what get returns.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"300, TRUNCATE, true", "700, SPLIT, true", "700, SPLIT, false"})
    void theFillPathWritesWhatGetReturns(int longest, Overlong overlong, boolean maskBoundaries) {
        SplittableRandom r = new SplittableRandom(8);
        int[] lengths = r.ints(600, 0, longest).toArray();
        int[] prompts = new int[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            prompts[i] = lengths[i] == 0 ? 0 : r.nextInt(lengths[i]);
        }
        PackedDataset rows = PackedDataset.builder(new TokenExamples(lengths), lengths, 256).promptLengths(prompts)
                .windowSize(50).seed(3).padTokenId(7).overlong(overlong).maskBoundaries(maskBoundaries).build();
        java.util.Map<java.util.List<Long>, Long> byIds = new java.util.HashMap<>();
        for (long i = 0; i < rows.size(); i++) {
            byIds.put(java.util.Arrays.stream(widen(rows.get(i).inputIds())).boxed().toList(), i);
        }
        Set<Long> seen = new HashSet<>();
        for (int workers : new int[] {0, 2}) {
            seen.clear();
            try (DataLoader<PackedRow> loader = DataLoader.builder(rows.fillable()).batchSize(5).shuffle(true)
                    .seed(1).numWorkers(workers).build()) {
                for (Batch b : loader) {
                    try (b) {
                        Tensor ids = b.tensor("input_ids");
                        assertThat(ids.shape().dim(1)).isEqualTo(256);
                        for (int j = 0; j < ids.shape().dim(0); j++) {
                            // the tokens name their examples, so the input ids name the row
                            Long row = byIds.get(java.util.Arrays.stream(ids.select(j).toLongArray()).boxed().toList());
                            assertThat(row).as("a row of the dataset").isNotNull();
                            assertThat(seen.add(row)).isTrue();
                            PackedRow want = rows.get(row);
                            assertThat(b.tensor("labels").select(j).toLongArray()).containsExactly(widen(want.labels()));
                            assertThat(b.tensor("position_ids").select(j).toLongArray())
                                    .containsExactly(widen(want.positionIds()));
                            assertThat(b.tensor("attention_mask").select(j).toLongArray())
                                    .containsExactly(widen(want.attentionMask()));
                        }
                    }
                }
            }
            assertThat(seen).hasSize((int) rows.size());
        }
    }

    private static long[] widen(int[] a) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
        return out;
    }
}
