package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.CountingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Test helper for the length-aware batch samplers: the laws every rank split must keep, and the
 * batches a real loader delivers, uninterrupted and resumed at random points.
 */
final class LengthAwareLoads {
    private LengthAwareLoads() {
    }

    static List<long[]> batches(BatchSampler s, long epoch) {
        List<long[]> out = new ArrayList<>();
        Iterator<long[]> it = s.iterator(epoch);
        while (it.hasNext()) {
            out.add(it.next());
        }
        assertThat(out).hasSize((int) s.size());
        return out;
    }

    /**
     * Checks the split across ranks of {@code n} samples: equal batch counts; without dropLast
     * every sample at least once and
     * fewer than {@code world} batches repeated; with dropLast
     * ranks disjoint. {@code sampler.apply(rank)} builds rank {@code rank}'s sampler.
     */
    static void checkRanks(int n, int world, boolean dropLast, long epoch, IntFunction<BatchSampler> sampler) {
        List<List<long[]>> ranks = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            ranks.add(batches(sampler.apply(r), epoch));
        }
        long count = ranks.getFirst().size();
        long[] seen = new long[n];
        for (List<long[]> rank : ranks) {
            assertThat(rank).as("batches per rank").hasSize((int) count);
            for (long[] b : rank) {
                assertThat(b).isNotEmpty();
                for (long i : b) {
                    seen[(int) i]++;
                }
            }
        }
        long total = Arrays.stream(seen).sum();
        if (dropLast) {
            assertThat(Arrays.stream(seen).allMatch(c -> c <= 1)).as("each sample at most once").isTrue();
        } else {
            assertThat(Arrays.stream(seen).allMatch(c -> c >= 1)).as("each sample at least once").isTrue();
            assertThat(total - n).as("repeats").isLessThanOrEqualTo((long) (world - 1) * maxBatch(ranks));
        }
    }

    private static long maxBatch(List<List<long[]>> ranks) {
        return ranks.stream().flatMap(List::stream).mapToLong(b -> b.length).max().orElse(0);
    }

    static DataLoader<Long> loader(int n, BatchSampler sampler, long seed, int workers) {
        return DataLoader.builder(new CountingDataset(n)).batchSampler(sampler).seed(seed).numWorkers(workers).build();
    }

    /** The batches of two epochs, each as its sample values. */
    static List<String> run(int n, BatchSampler sampler, int workers) {
        List<String> out = new ArrayList<>();
        try (DataLoader<Long> loader = loader(n, sampler, 1, workers)) {
            for (int e = 0; e < 2; e++) {
                for (Batch b : loader) {
                    try (b) {
                        out.add(b.epoch() + ":" + Arrays.toString(b.indices()));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Stops a loader at a random batch of two epochs, restores its state into a new loader with
     * another number of workers, and checks the batches that follow are those of an uninterrupted run.
     */
    static void checkResume(int n, BatchSampler sampler, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> expected = run(n, sampler, 0);
        assertThat(run(n, sampler, 2)).as("2 workers").isEqualTo(expected);
        for (int trial = 0; trial < 4; trial++) {
            int stopAt = random.nextInt(expected.size() + 1);
            List<String> got = new ArrayList<>();
            LoaderState state;
            try (DataLoader<Long> loader = loader(n, sampler, 1, random.nextInt(3))) {
                int taken = 0;
                outer:
                for (int e = 0; e < 2; e++) {
                    BatchIterator it = loader.iterator();
                    while (it.hasNext()) {
                        if (taken == stopAt) {
                            it.close();
                            break outer;
                        }
                        try (Batch b = it.next()) {
                            got.add(b.epoch() + ":" + Arrays.toString(b.indices()));
                        }
                        taken++;
                    }
                }
                state = loader.state();
            }
            try (DataLoader<Long> loader = loader(n, sampler, 1, random.nextInt(3))) {
                loader.restore(state);
                for (int pass = 0; pass < 3 && got.size() < expected.size(); pass++) {
                    for (Batch b : loader) {
                        try (b) {
                            got.add(b.epoch() + ":" + Arrays.toString(b.indices()));
                        }
                    }
                }
            }
            assertThat(got).as("stop after %d batches", stopAt).isEqualTo(expected);
        }
    }
}
