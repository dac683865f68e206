package dev.stoker.packing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.sampler.DistributedSampler;
import dev.stoker.sampler.LongTailLengths;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PackedCollateTest {
    private static final int[] LENGTHS = LongTailLengths.of(600, 60, 0, 400, 12);
    private static final PackedDataset ROWS = PackedDataset.builder(new TokenExamples(LENGTHS), LENGTHS, 256)
            .windowSize(50).seed(3).build();

    private static DataLoader<PackedRow> loader(int workers) {
        return DataLoader.builder(ROWS).batchSize(4).shuffle(true).seed(7).numWorkers(workers)
                .collate(new PackedCollate()).build();
    }

    /** A batch as text: its rows, the flattened bounds and the longest segment. */
    private static String describe(Batch b) {
        return b.epoch() + ":" + Arrays.toString(b.indices()) + Arrays.hashCode(b.tensor("input_ids").toLongArray())
                + "/" + Arrays.hashCode(b.tensor("labels").toLongArray()) + "/"
                + Arrays.toString(b.tensor("cu_seqlens").toIntArray()) + "/" + b.tensor("max_seqlen").getLong(0);
    }

    private static List<String> run(int workers) {
        List<String> out = new ArrayList<>();
        try (DataLoader<PackedRow> loader = loader(workers)) {
            for (int e = 0; e < 2; e++) {
                for (Batch b : loader) {
                    try (b) {
                        out.add(describe(b));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void batchesMatchTheRowsTheyHold() {
        try (DataLoader<PackedRow> loader = loader(2)) {
            for (Batch b : loader) {
                try (b) {
                    long[] rows = b.indices();
                    int length = ROWS.maxLength();
                    assertThat(b.tensor("input_ids").shape().toArray()).containsExactly(rows.length, length);
                    List<Integer> bounds = new ArrayList<>(List.of(0));
                    int longest = 0;
                    for (int r = 0; r < rows.length; r++) {
                        PackedRow row = ROWS.get(rows[r]);
                        Tensor ids = b.tensor("input_ids").select(r);
                        Tensor labels = b.tensor("labels").select(r);
                        Tensor positions = b.tensor("position_ids").select(r);
                        Tensor mask = b.tensor("attention_mask").select(r);
                        assertThat(ids.toIntArray()).isEqualTo(row.inputIds());
                        assertThat(labels.toIntArray()).isEqualTo(row.labels());
                        assertThat(positions.toIntArray()).isEqualTo(row.positionIds());
                        assertThat(mask.toIntArray()).isEqualTo(row.attentionMask());
                        for (int k = 1; k < row.cuSeqlens().length; k++) {
                            bounds.add(r * length + row.cuSeqlens()[k]);
                        }
                        longest = Math.max(longest, row.maxSeqlen());
                    }
                    assertThat(b.tensor("cu_seqlens").toIntArray())
                            .isEqualTo(bounds.stream().mapToInt(Integer::intValue).toArray());
                    assertThat(b.tensor("max_seqlen").getLong(0)).isEqualTo(longest);
                }
            }
        }
    }

    @Test
    void sameBatchesOnZeroAndTwoWorkersAndAcrossAResumeAtRandomPoints() {
        List<String> expected = run(0);
        assertThat(run(2)).isEqualTo(expected);
        SplittableRandom random = new SplittableRandom(5);
        for (int trial = 0; trial < 4; trial++) {
            int stopAt = random.nextInt(expected.size() + 1);
            List<String> got = new ArrayList<>();
            LoaderState state;
            try (DataLoader<PackedRow> loader = loader(random.nextInt(3))) {
                outer:
                for (int e = 0; e < 2; e++) {
                    BatchIterator it = loader.iterator();
                    while (it.hasNext()) {
                        if (got.size() == stopAt) {
                            it.close();
                            break outer;
                        }
                        try (Batch b = it.next()) {
                            got.add(describe(b));
                        }
                    }
                }
                state = loader.state();
            }
            try (DataLoader<PackedRow> loader = loader(random.nextInt(3))) {
                loader.restore(state);
                for (int pass = 0; pass < 3 && got.size() < expected.size(); pass++) {
                    for (Batch b : loader) {
                        try (b) {
                            got.add(describe(b));
                        }
                    }
                }
            }
            assertThat(got).as("stop after %d batches", stopAt).isEqualTo(expected);
        }
    }

    @Test
    void ranksShareTheRowsWithoutOverlap() {
        Set<Long> seen = new HashSet<>();
        for (int rank = 0; rank < 3; rank++) {
            DistributedSampler mine = DistributedSampler.builder(ROWS.size()).numReplicas(3).rank(rank).seed(7)
                    .dropLast(true).build();
            try (DataLoader<PackedRow> loader = DataLoader.builder(ROWS).sampler(mine).batchSize(4).seed(7)
                    .collate(new PackedCollate()).build()) {
                for (Batch b : loader) {
                    try (b) {
                        for (long i : b.indices()) {
                            assertThat(seen.add(i)).as("row %d on one rank only", i).isTrue();
                        }
                    }
                }
            }
        }
        assertThat(seen).hasSize((int) (ROWS.size() / 3 * 3));
    }
}
