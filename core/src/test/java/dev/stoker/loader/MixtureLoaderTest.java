package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.ConcatDataset;
import dev.stoker.data.CountingDataset;
import dev.stoker.data.Datasets;
import dev.stoker.sampler.MixtureSampler;
import dev.stoker.sampler.Share;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A mixture of datasets through the loader: the shares arrive, and a stopped run resumes exactly. */
class MixtureLoaderTest {
    private static final int EPOCHS = 2;

    /** Source a's samples are 0..99, source b's 1000..1039, source c's 5000..5009. */
    private static ConcatDataset<Long> sources() {
        return Datasets.concat(new CountingDataset("a", 100, 0), new CountingDataset("b", 40, 1000),
                new CountingDataset("c", 10, 5000));
    }

    private static MixtureSampler mixture(ConcatDataset<Long> all, long seed) {
        return MixtureSampler.builder(all.partSizes())
                .shares(Share.proportion(0.5), Share.proportion(0.3), Share.proportion(0.2))
                .epochSize(90).seed(seed).build();
    }

    private static String describe(Batch b) {
        return b.epoch() + "/" + b.index() + ":" + Arrays.toString(b.tensor().toLongArray());
    }

    @Test
    void everyEpochDeliversEachSourceItsShare() {
        ConcatDataset<Long> all = sources();
        try (DataLoader<Long> loader = DataLoader.builder(all).sampler(mixture(all, 3)).batchSize(8)
                .numWorkers(2).build()) {
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                long[] perSource = new long[3];
                for (Batch b : loader) {
                    try (b) {
                        for (long v : b.tensor().toLongArray()) {
                            perSource[v >= 5000 ? 2 : v >= 1000 ? 1 : 0]++;
                        }
                    }
                }
                // c has 10 samples and a share of 18: every one of them once, 8 of them twice.
                assertThat(perSource).containsExactly(45, 27, 18);
            }
        }
    }

    @Test
    void aStratifiedMixtureGivesEveryBatchTheSameComposition() {
        ConcatDataset<Long> all = sources();
        MixtureSampler stratified = MixtureSampler.builder(all.partSizes())
                .shares(Share.proportion(0.5), Share.proportion(0.3), Share.proportion(0.2))
                .epochSize(90).stratified(10).seed(4).build();
        assertThat(stratified.perGlobalBatch()).containsExactly(5, 3, 2);
        int batches = 0;
        try (DataLoader<Long> loader = DataLoader.builder(all).sampler(stratified).batchSize(10).numWorkers(2)
                .build()) {
            for (Batch b : loader) {
                try (b) {
                    long[] perSource = new long[3];
                    for (long v : b.tensor().toLongArray()) {
                        perSource[v >= 5000 ? 2 : v >= 1000 ? 1 : 0]++;
                    }
                    assertThat(perSource).containsExactly(5, 3, 2);
                    batches++;
                }
            }
        }
        assertThat(batches).isEqualTo(9);
    }

    @Test
    void aMixtureResumesExactlyOnAnotherNumberOfWorkers() {
        Random random = new Random(20261124);
        for (int trial = 0; trial < 40; trial++) {
            long seed = random.nextLong();
            int batchSize = 1 + random.nextInt(12);
            List<String> expected;
            ConcatDataset<Long> all = sources();
            try (DataLoader<Long> loader = DataLoader.builder(all).sampler(mixture(all, seed)).batchSize(batchSize)
                    .build()) {
                expected = ResumeRuns.uninterrupted(loader, EPOCHS, MixtureLoaderTest::describe);
            }
            int stopAfter = random.nextInt(expected.size() + 1);
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<Long> loader = DataLoader.builder(all).sampler(mixture(all, seed)).batchSize(batchSize)
                    .numWorkers(random.nextInt(4)).build()) {
                state = ResumeRuns.stopAfter(loader, EPOCHS, stopAfter, MixtureLoaderTest::describe, seen);
            }
            try (DataLoader<Long> loader = DataLoader.builder(all).sampler(mixture(all, seed)).batchSize(batchSize)
                    .numWorkers(random.nextInt(4)).build()) {
                ResumeRuns.resume(loader, state, EPOCHS, MixtureLoaderTest::describe, seen, () -> {});
            }
            assertThat(seen).as("trial %d, stop after %d", trial, stopAfter).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aMixtureAsAnElasticOrderResumesOnAnotherNumberOfRanks() {
        ConcatDataset<Long> all = sources();
        MixtureSampler order = mixture(all, 77);
        java.util.Map<Long, Integer> expected = new java.util.HashMap<>();
        order.iterator(0).forEachRemaining((long i) -> expected.merge(i < 100 ? i : i < 140 ? i + 900 : i + 4860, 1,
                Integer::sum));
        java.util.Map<Long, Integer> seen = new java.util.HashMap<>();
        LoaderState state = null;
        for (int rank = 0; rank < 2; rank++) { // two ranks stop after 3 global batches of 12
            try (DataLoader<Long> loader = DataLoader.builder(all)
                    .batchSampler(dev.stoker.sampler.ElasticBatchSampler.over(order, 12, false, rank, 2)).build()) {
                state = ResumeRuns.stopAfter(loader, 1, 3, b -> count(b, seen), new ArrayList<>());
            }
        }
        for (int rank = 0; rank < 3; rank++) { // three ranks finish the epoch
            try (DataLoader<Long> loader = DataLoader.builder(all)
                    .batchSampler(dev.stoker.sampler.ElasticBatchSampler.over(order, 12, false, rank, 3)).build()) {
                loader.restore(state);
                ResumeRuns.stopAfter(loader, 1, Integer.MAX_VALUE, b -> count(b, seen), new ArrayList<>());
            }
        }
        assertThat(seen).isEqualTo(expected);
    }

    private static String count(Batch b, java.util.Map<Long, Integer> seen) {
        for (long v : b.tensor().toLongArray()) {
            seen.merge(v, 1, Integer::sum);
        }
        return "";
    }
}
