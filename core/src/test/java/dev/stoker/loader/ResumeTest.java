package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.Dataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Resume equals no resume: the batches delivered before a stop, followed by those delivered after
 * restoring the state on a new loader (another worker count, another delivery order), are the
 * batches of an uninterrupted run, each once; and the resumed loader reads only what it delivers.
 */
class ResumeTest {
    private static final int EPOCHS = 3;

    private record Setup(long size, int batchSize, boolean dropLast, boolean shuffle, long seed) {
        LoaderBuilder<Long> builder(CountingDataset ds, int workers, boolean inOrder) {
            return DataLoader.builder(ds).batchSize(batchSize).dropLast(dropLast).shuffle(shuffle).seed(seed)
                    .numWorkers(workers).inOrder(inOrder).prefetchFactor(2);
        }
    }

    /** "epoch/k:indices=values" of a batch. */
    private static String describe(Batch b) {
        return b.epoch() + "/" + b.index() + ":" + Arrays.toString(b.indices()) + "="
                + Arrays.toString(b.tensor().toLongArray());
    }

    private static List<String> uninterrupted(Setup s) {
        try (DataLoader<Long> loader = s.builder(new CountingDataset(s.size()), 0, true).build()) {
            return ResumeRuns.uninterrupted(loader, EPOCHS, ResumeTest::describe);
        }
    }

    @Test
    void batchesBeforeTheStopAndAfterTheRestoreAreAnUninterruptedRun() {
        Random random = new Random(20261122);
        int[] workerCounts = {0, 1, 2, 3, 4};
        for (int trial = 0; trial < 1000; trial++) {
            Setup s = new Setup(1 + random.nextInt(60), 1 + random.nextInt(8), random.nextBoolean(),
                    random.nextBoolean(), random.nextLong());
            List<String> expected = uninterrupted(s);
            int stopAfter = random.nextInt(expected.size() + 1);
            int workersBefore = workerCounts[random.nextInt(workerCounts.length)];
            int workersAfter = workerCounts[random.nextInt(workerCounts.length)];
            boolean inOrderBefore = random.nextBoolean();
            boolean inOrderAfter = random.nextBoolean();
            String what = "trial " + trial + ": " + s + ", stop after " + stopAfter + ", workers " + workersBefore
                    + " -> " + workersAfter + ", in order " + inOrderBefore + " -> " + inOrderAfter;

            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<Long> loader = s.builder(new CountingDataset(s.size()), workersBefore, inOrderBefore)
                    .build()) {
                state = ResumeRuns.stopAfter(loader, EPOCHS, stopAfter, ResumeTest::describe, seen);
            }

            CountingDataset after = new CountingDataset(s.size());
            AtomicLong deliveredSamples = new AtomicLong();
            try (DataLoader<Long> loader = s.builder(after, workersAfter, inOrderAfter).build()) {
                ResumeRuns.resume(loader, state, EPOCHS, b -> {
                    deliveredSamples.addAndGet(b.indices().length);
                    return describe(b);
                }, seen, () -> {});
            }

            assertThat(seen).as(what).containsExactlyInAnyOrderElementsOf(expected);
            if (inOrderBefore && inOrderAfter) {
                assertThat(seen).as(what).containsExactlyElementsOf(expected);
            }
            assertThat(after.gets.get()).as(what + ": the resumed loader reads only what it delivers")
                    .isEqualTo(deliveredSamples.get());
        }
    }

    @Test
    void randomDrawsResumeToo() {
        // sample i is i * 2^20 + a draw from the batch's generator, as a random transform would make it
        Dataset<Long> draws = new Dataset<>() {
            public long size() {
                return 50;
            }

            public Long get(long i) {
                return (i << 20) + (WorkerContext.currentRandom().nextLong() & 0xFFFFF);
            }
        };
        Random random = new Random(7);
        for (int trial = 0; trial < 20; trial++) {
            int stop = random.nextInt(13);
            int before = random.nextInt(4);
            int after = random.nextInt(4);
            List<Long> expected = new ArrayList<>();
            List<Long> seen = new ArrayList<>();
            try (DataLoader<Long> loader = DataLoader.builder(draws).batchSize(4).shuffle(true).seed(trial).build()) {
                for (Batch b : loader) {
                    try (b) {
                        for (long v : b.tensor().toLongArray()) expected.add(v);
                    }
                }
            }
            LoaderState state;
            try (DataLoader<Long> loader = DataLoader.builder(draws).batchSize(4).shuffle(true).seed(trial)
                    .numWorkers(before).build()) {
                BatchIterator it = loader.iterator();
                for (int k = 0; k < stop; k++) {
                    try (Batch b = it.next()) {
                        for (long v : b.tensor().toLongArray()) seen.add(v);
                    }
                }
                state = loader.state();
            }
            try (DataLoader<Long> loader = DataLoader.builder(draws).batchSize(4).shuffle(true).seed(trial)
                    .numWorkers(after).build()) {
                loader.restore(state);
                for (Batch b : loader) {
                    try (b) {
                        for (long v : b.tensor().toLongArray()) seen.add(v);
                    }
                }
            }
            assertThat(seen).as("stop after %d, workers %d -> %d", stop, before, after).isEqualTo(expected);
        }
    }

    @Test
    void aStateTakenAtEveryBatchResumesAtThatBatch() {
        Setup s = new Setup(37, 4, false, true, 7);
        List<String> expected = uninterrupted(s);
        Set<String> checked = new HashSet<>();
        try (DataLoader<Long> loader = s.builder(new CountingDataset(s.size()), 2, true).build()) {
            int position = 0;
            for (int e = 0; e < EPOCHS; e++) {
                for (Batch b : loader) {
                    b.close();
                    position++;
                    LoaderState state = loader.state();
                    if (position < expected.size()) {
                        try (DataLoader<Long> again = s.builder(new CountingDataset(s.size()), 0, true).build()) {
                            again.restore(state);
                            try (BatchIterator it = again.iterator(); Batch next = it.next()) {
                                assertThat(describe(next)).isEqualTo(expected.get(position));
                                checked.add(describe(next));
                            }
                        }
                    }
                }
            }
        }
        assertThat(checked).hasSize(expected.size() - 1);
    }

    @Test
    void aStateFromAnotherLoaderIsRefused() {
        LoaderState state;
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(100)).batchSize(10).seed(1).build()) {
            loader.iterator().next().close();
            state = loader.state();
        }
        assertThat(state.nextBatch()).isEqualTo(1);
        try (DataLoader<Long> otherSize = DataLoader.builder(new CountingDataset(90)).batchSize(10).seed(1).build();
             DataLoader<Long> otherBatch = DataLoader.builder(new CountingDataset(100)).batchSize(20).seed(1).build();
             DataLoader<Long> otherSeed = DataLoader.builder(new CountingDataset(100)).batchSize(10).seed(2).build()) {
            for (DataLoader<Long> other : List.of(otherSize, otherBatch, otherSeed)) {
                assertThatThrownBy(() -> other.restore(state)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("this state is from another loader");
            }
        }
    }

    @Test
    void aFinishedEpochStandsAtTheStartOfTheNext() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(10)).batchSize(5).build()) {
            assertThat(loader.state()).isEqualTo(LoaderState.ofMap(0, 0, new long[0], 0, 10, 2, 0, 1));
            for (Batch b : loader) {
                b.close();
            }
            assertThat(loader.state()).isEqualTo(LoaderState.ofMap(1, 0, new long[0], 0, 10, 2, 0, 1));
        }
    }

    @Test
    void aBatchWhoseSamplesWereAllSkippedDoesNotHoldTheStateBack() {
        Set<Long> bad = Set.of(4L, 5L, 6L, 7L, 13L); // batch 1 entirely, one sample of batch 3
        for (int workers : new int[] {0, 2}) {
            CountingDataset ds = new CountingDataset(20) {
                @Override
                public Long get(long index) {
                    if (bad.contains(index)) {
                        throw new IllegalStateException("bad sample " + index);
                    }
                    return super.get(index);
                }
            };
            try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).numWorkers(workers)
                    .onBadSample(SamplePolicy.SKIP).build()) {
                BatchIterator it = loader.iterator();
                it.next().close(); // batch 0
                try (Batch b = it.next()) {
                    assertThat(b.index()).as("batch 1 had nothing to deliver").isEqualTo(2);
                }
                assertThat(loader.state().nextBatch()).as(workers + " workers").isEqualTo(3);
                assertThat(loader.state().deliveredAhead()).isEmpty();
                while (it.hasNext()) {
                    it.next().close();
                }
                assertThat(loader.state()).isEqualTo(LoaderState.ofMap(1, 0, new long[0], 0, 20, 5, 0, 1));
            }
        }
    }
}
