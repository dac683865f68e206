package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.PadCollate;
import dev.stoker.collate.PaddedBatch;
import dev.stoker.data.Dataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TokenBudgetBatchSamplerTest {

    @Test
    void batchesStayWithinTheBudgetUnlessOneSampleAloneExceedsIt() {
        SplittableRandom random = new SplittableRandom(23);
        for (int trial = 0; trial < 40; trial++) {
            int n = random.nextInt(1, 400);
            int[] lengths = LongTailLengths.of(n, 60, 1, 3000, trial);
            long budget = random.nextInt(200, 5000);
            TokenCost cost = random.nextBoolean() ? TokenCost.PADDED : TokenCost.PACKED;
            int cap = random.nextBoolean() ? 0 : random.nextInt(1, 20);
            TokenBudgetBatchSampler s = TokenBudgetBatchSampler.builder(lengths, budget).cost(cost)
                    .maxBatchSize(cap).seed(trial).build();
            long over = 0;
            for (long[] b : LengthAwareLoads.batches(s, trial)) {
                if (cap > 0) {
                    assertThat(b.length).isLessThanOrEqualTo(cap);
                }
                if (s.cost(b) > budget) {
                    assertThat(b).as("over budget only alone").hasSize(1);
                    assertThat(lengths[(int) b[0]]).isGreaterThan((int) budget);
                    over++;
                }
            }
            assertThat(over).isEqualTo(s.oversizedBatches());
        }
    }

    @Test
    void everyRankGetsTheSameNumberOfBatchesAndEverySampleOnce() {
        SplittableRandom random = new SplittableRandom(29);
        for (int trial = 0; trial < 40; trial++) {
            int n = random.nextInt(0, 300);
            int world = random.nextInt(1, 9);
            boolean dropLast = random.nextBoolean();
            long seed = random.nextLong();
            long budget = random.nextInt(100, 3000);
            int[] lengths = LongTailLengths.of(n, 30, 1, 800, trial);
            LengthAwareLoads.checkRanks(n, world, dropLast, trial, r -> TokenBudgetBatchSampler
                    .builder(lengths, budget).seed(seed).rank(r).worldSize(world).dropLast(dropLast).build());
        }
    }

    @Test
    void theCountIsFixedAcrossEpochsWhileTheBatchesChange() {
        int[] lengths = LongTailLengths.of(2000, 100, 1, 2048, 4);
        TokenBudgetBatchSampler s = TokenBudgetBatchSampler.builder(lengths, 8192).seed(3).build();
        List<long[]> e0 = LengthAwareLoads.batches(s, 0);
        List<long[]> e1 = LengthAwareLoads.batches(s, 1);
        assertThat(e1).hasSameSizeAs(e0);
        Set<String> first = new HashSet<>();
        for (long[] b : e0) {
            long[] sorted = b.clone();
            Arrays.sort(sorted);
            first.add(Arrays.toString(sorted));
        }
        long same = e1.stream().map(long[]::clone).peek(Arrays::sort).map(Arrays::toString)
                .filter(first::contains).count();
        assertThat(same).as("batches with the same members in both epochs").isLessThan(e0.size() / 2);
        assertThat(LengthAwareLoads.batches(s, 1)).as("a pure function of the epoch")
                .usingRecursiveFieldByFieldElementComparator().isEqualTo(e1);
    }

    @Test
    void paddedBatchesWasteLittle() {
        int[] lengths = LongTailLengths.of(20_000, 300, 8, 4096, 5);
        TokenBudgetBatchSampler s = TokenBudgetBatchSampler.builder(lengths, 16_384).seed(1).build();
        long real = 0;
        long padded = 0;
        for (long[] b : LengthAwareLoads.batches(s, 0)) {
            padded += s.cost(b);
            for (long i : b) {
                real += lengths[(int) i];
            }
        }
        assertThat((double) real / padded).isGreaterThan(0.95);
    }

    @Test
    void resumesExactlyThroughALoaderAcrossWorkerCounts() {
        int[] lengths = LongTailLengths.of(211, 30, 1, 400, 6);
        for (int world = 1; world <= 3; world++) {
            LengthAwareLoads.checkResume(211, TokenBudgetBatchSampler.builder(lengths, 600).seed(8)
                    .rank(world - 1).worldSize(world).build(), world);
        }
    }

    @Test
    void aLoaderPadsEachVariableSizeBatchWithinTheBudget() {
        int[] lengths = LongTailLengths.of(500, 40, 1, 300, 7);
        Dataset<int[]> tokens = new Dataset<>() {
            public long size() {
                return lengths.length;
            }

            public int[] get(long i) {
                return new int[lengths[(int) i]];
            }
        };
        TokenBudgetBatchSampler budget = TokenBudgetBatchSampler.builder(lengths, 1024).seed(2).build();
        Set<Long> sizes = new HashSet<>();
        long samples = 0;
        try (DataLoader<int[]> loader = DataLoader.builder(tokens).batchSampler(budget).seed(2).numWorkers(2)
                .collate(PadCollate.of()).build()) {
            for (Batch b : loader) {
                try (b) {
                    PaddedBatch padded = (PaddedBatch) b.data();
                    long[] shape = padded.padded().shape().toArray();
                    assertThat(shape[0] * shape[1]).isLessThanOrEqualTo(1024);
                    sizes.add(shape[0]);
                    samples += shape[0];
                }
            }
        }
        assertThat(samples).isEqualTo(lengths.length);
        assertThat(sizes).as("batch sizes vary").hasSizeGreaterThan(3);
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> TokenBudgetBatchSampler.builder(new int[] {1}, 0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TokenBudgetBatchSampler.builder(new int[] {1, -2}, 10).build())
                .hasMessageContaining("sample 1");
    }
}
