package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.CountingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ElasticBatchSamplerTest {

    @Test
    void theRanksTogetherSeeEverySampleOnceWithEqualBatchCounts() {
        Random random = new Random(7);
        for (int trial = 0; trial < 300; trial++) {
            int world = 1 + random.nextInt(8);
            int global = world + random.nextInt(40);
            long size = random.nextInt(500);
            boolean shuffle = random.nextBoolean();
            long seed = random.nextLong();
            long epoch = random.nextInt(5);
            List<Long> all = new ArrayList<>();
            long batches = -1;
            for (int r = 0; r < world; r++) {
                ElasticBatchSampler s = new ElasticBatchSampler(size, global, shuffle, seed, false, r, world);
                long count = 0;
                for (Iterator<long[]> it = s.iterator(epoch); it.hasNext(); count++) {
                    for (long i : it.next()) {
                        all.add(i);
                    }
                }
                assertThat(count).isEqualTo(s.size());
                if (batches >= 0) {
                    assertThat(count).isEqualTo(batches);
                }
                batches = count;
            }
            assertThat(all).as("trial " + trial).hasSize((int) size).doesNotHaveDuplicates()
                    .allMatch(i -> i >= 0 && i < size);
        }
    }

    @Test
    void globalBatchGHoldsTheSameSamplesWhateverTheWorldSize() {
        long size = 1000;
        int global = 24;
        for (int world : new int[] {1, 2, 3, 4, 6, 8}) {
            for (long g = 0; g < 5; g++) {
                List<Long> union = new ArrayList<>();
                for (int r = 0; r < world; r++) {
                    Iterator<long[]> it = new ElasticBatchSampler(size, global, true, 9, false, r, world).iterator(3);
                    long[] b = null;
                    for (long k = 0; k <= g; k++) {
                        b = it.next();
                    }
                    for (long i : b) {
                        union.add(i);
                    }
                }
                Iterator<long[]> single = new ElasticBatchSampler(size, global, true, 9, false, 0, 1).iterator(3);
                long[] expected = null;
                for (long k = 0; k <= g; k++) {
                    expected = single.next();
                }
                assertThat(union).as("world " + world + ", batch " + g).containsExactly(
                        Arrays.stream(expected).boxed().toArray(Long[]::new));
            }
        }
    }

    @Test
    void aJobStoppedWithOneWorldSizeResumesWithAnotherSeeingEachRemainingSampleOnce() {
        Random random = new Random(11);
        for (int trial = 0; trial < 60; trial++) {
            int before = 1 + random.nextInt(4);
            int after = 1 + random.nextInt(4);
            int global = 12 * (1 + random.nextInt(3));
            long size = global + random.nextInt(200);
            long seed = random.nextLong();
            boolean blocks = random.nextBoolean(); // the global order of a block shuffle, shard-local
            ElasticBatchSampler probe = new ElasticBatchSampler(size, global, true, seed, true, 0, 1);
            long stopAt = random.nextInt((int) probe.size() + 1);
            List<Long> seen = new ArrayList<>();
            LoaderState state = null;
            for (int r = 0; r < before; r++) {
                try (DataLoader<Long> loader = loader(size, global, seed, r, before, random.nextInt(3), blocks)) {
                    BatchIterator it = loader.iterator();
                    for (long k = 0; k < stopAt; k++) {
                        try (Batch b = it.next()) {
                            for (long i : b.indices()) {
                                seen.add(i);
                            }
                        }
                    }
                    if (r == 0) {
                        state = loader.state(); // in synchronous training every rank stands at the same batch
                    }
                }
            }
            for (int r = 0; r < after; r++) {
                try (DataLoader<Long> loader = loader(size, global, seed, r, after, random.nextInt(3), blocks)) {
                    loader.restore(state);
                    BatchIterator it = loader.iterator();
                    if (state.epoch() > 0) {
                        it.close(); // the stop came at the end of epoch 0: nothing of it remains
                        continue;
                    }
                    while (it.hasNext()) {
                        try (Batch b = it.next()) {
                            for (long i : b.indices()) {
                                seen.add(i);
                            }
                        }
                    }
                }
            }
            String what = "trial " + trial + ": " + before + " -> " + after + " ranks, stop at " + stopAt
                    + (blocks ? ", block shuffle" : "");
            assertThat(seen).as(what).hasSize((int) (probe.size() * global)).doesNotHaveDuplicates();
        }
    }

    private static DataLoader<Long> loader(long size, int global, long seed, int rank, int world, int workers,
                                           boolean blocks) {
        BatchSampler sampler = blocks
                ? ElasticBatchSampler.over(new BlockShuffleSampler(size, 10, 2, seed), global, true, rank, world)
                : new ElasticBatchSampler(size, global, true, seed, true, rank, world);
        return DataLoader.builder(new CountingDataset(size)).batchSampler(sampler).seed(seed).numWorkers(workers)
                .build();
    }

    @Test
    void overASamplerTheGlobalBatchesFollowItsOrder() {
        Sampler order = new BlockShuffleSampler(103, 10, 2, 5);
        List<Long> expected = new ArrayList<>();
        order.iterator(2).forEachRemaining((long i) -> expected.add(i));
        for (int world = 1; world <= 4; world++) {
            List<List<Long>> ranks = new ArrayList<>();
            for (int r = 0; r < world; r++) {
                List<Long> mine = new ArrayList<>();
                ElasticBatchSampler.over(order, 20, false, r, world).iterator(2)
                        .forEachRemaining(b -> Arrays.stream(b).forEach(mine::add));
                ranks.add(mine);
            }
            // global batch g is the g-th 20 of the order, its slices in rank order
            List<Long> joined = new ArrayList<>();
            int[] at = new int[world];
            for (int g = 0; g < 6; g++) {
                int n = Math.min(20, 103 - 20 * g);
                for (int r = 0; r < world; r++) {
                    int len = n / world + (r < n % world ? 1 : 0);
                    joined.addAll(ranks.get(r).subList(at[r], at[r] + len));
                    at[r] += len;
                }
            }
            assertThat(joined).as("world %d", world).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aGlobalBatchSmallerThanTheWorldIsRefused() {
        assertThatThrownBy(() -> new ElasticBatchSampler(100, 3, true, 0, false, 0, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4 ranks");
    }
}
