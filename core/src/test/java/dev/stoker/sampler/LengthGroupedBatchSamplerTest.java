package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LengthGroupedBatchSamplerTest {

    @Test
    void oneRankYieldsTheGroupedOrderInBatchesOfBatchSize() {
        int[] lengths = LongTailLengths.of(103, 40, 1, 1000, 1);
        LengthGroupedBatchSampler s = LengthGroupedBatchSampler.builder(lengths, 10).seed(5).build();
        List<Long> joined = new ArrayList<>();
        for (long[] b : LengthAwareLoads.batches(s, 3)) {
            assertThat(b.length).isLessThanOrEqualTo(10);
            for (long i : b) {
                joined.add(i);
            }
        }
        assertThat(s.size()).isEqualTo(11);
        assertThat(joined).containsExactlyElementsOf(
                Drain.boxed(LengthGroupedOrder.of(lengths, 10, s.megaBatchMult(), 5, 3)));
    }

    @Test
    void everyRankGetsTheSameNumberOfBatchesAndEverySampleOnce() {
        SplittableRandom random = new SplittableRandom(17);
        for (int trial = 0; trial < 40; trial++) {
            int n = random.nextInt(0, 300);
            int batch = random.nextInt(1, 12);
            int world = random.nextInt(1, 9);
            boolean dropLast = random.nextBoolean();
            long seed = random.nextLong();
            int[] lengths = LongTailLengths.of(n, 30, 1, 500, trial);
            LengthAwareLoads.checkRanks(n, world, dropLast, trial, r -> LengthGroupedBatchSampler
                    .builder(lengths, batch).seed(seed).rank(r).worldSize(world).dropLast(dropLast).build());
            long global = LengthGroupedBatchSampler.builder(lengths, batch).dropLast(dropLast).build().size();
            long perRank = LengthGroupedBatchSampler.builder(lengths, batch).worldSize(world).dropLast(dropLast)
                    .build().size();
            assertThat(perRank).isEqualTo(dropLast ? global / world : Math.ceilDiv(global, world));
        }
    }

    @Test
    void ranksOfOneStepTakeNeighbouringGlobalBatches() {
        int[] lengths = LongTailLengths.of(64, 30, 1, 500, 2);
        List<long[]> global = LengthAwareLoads.batches(
                LengthGroupedBatchSampler.builder(lengths, 4).seed(9).build(), 0);
        for (int r = 0; r < 4; r++) {
            List<long[]> mine = LengthAwareLoads.batches(
                    LengthGroupedBatchSampler.builder(lengths, 4).seed(9).rank(r).worldSize(4).build(), 0);
            for (int j = 0; j < mine.size(); j++) {
                assertThat(mine.get(j)).isEqualTo(global.get(4 * j + r));
            }
        }
    }

    @Test
    void resumesExactlyThroughALoaderAcrossWorkerCounts() {
        int[] lengths = LongTailLengths.of(157, 30, 1, 500, 3);
        for (int world = 1; world <= 3; world++) {
            LengthAwareLoads.checkResume(157, LengthGroupedBatchSampler.builder(lengths, 8).seed(4)
                    .rank(world - 1).worldSize(world).build(), world);
        }
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> LengthGroupedBatchSampler.builder(new int[] {1}, 0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LengthGroupedBatchSampler.builder(new int[] {1}, 1).rank(2).worldSize(2).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LengthGroupedBatchSampler.builder(new int[] {1, -2}, 1).build())
                .hasMessageContaining("sample 1");
    }
}
