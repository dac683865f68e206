package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.CountingDataset;
import dev.stoker.data.Dataset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerEngineTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Every batch of one pass as "k:[indices]=[values]", each batch closed after reading. */
    private static List<String> pass(DataLoader<Long> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                out.add(b.index() + ":" + Arrays.toString(b.indices()) + "=" + Arrays.toString(b.tensor().toLongArray()));
            }
        }
        return out;
    }

    @Test
    void theBatchesAreTheSameForAnyNumberOfWorkers() {
        SplittableRandom rnd = new SplittableRandom(20261122);
        for (int trial = 0; trial < 25; trial++) {
            int n = rnd.nextInt(0, 120);
            int batchSize = rnd.nextInt(1, 17);
            boolean dropLast = rnd.nextBoolean();
            boolean shuffle = rnd.nextBoolean();
            int prefetch = rnd.nextInt(1, 5);
            boolean persistent = rnd.nextBoolean();
            long seed = rnd.nextLong();
            List<List<String>> expected = null;
            for (int workers : new int[] {0, 1, 2, 4, 8}) {
                LoaderBuilder<Long> b = DataLoader.builder(new CountingDataset(n)).batchSize(batchSize)
                        .dropLast(dropLast).shuffle(shuffle).seed(seed).numWorkers(workers).prefetchFactor(prefetch);
                if (workers > 0) {
                    b.persistentWorkers(persistent);
                }
                List<List<String>> epochs = new ArrayList<>();
                try (DataLoader<Long> loader = b.build()) {
                    epochs.add(pass(loader));
                    epochs.add(pass(loader));
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                String config = "trial " + trial + ": n=" + n + " batch=" + batchSize + " dropLast=" + dropLast
                        + " shuffle=" + shuffle + " prefetch=" + prefetch + " workers=" + workers;
                if (expected == null) {
                    expected = epochs;
                    assertThat(epochs.get(0)).as(config).hasSize((int) (dropLast ? n / batchSize
                            : (n + batchSize - 1) / batchSize));
                } else {
                    assertThat(epochs).as(config).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void outOfOrderDeliveryGivesTheSameBatches() {
        // sample i takes a little longer when i % 7 == 0, so batches finish out of turn
        CountingDataset uneven = new CountingDataset("uneven", 200, 0) {
            @Override
            protected Long fetch(long index) {
                if (index % 7 == 0) {
                    sleep(1);
                }
                return super.fetch(index);
            }
        };
        List<String> inOrder;
        try (DataLoader<Long> loader = DataLoader.builder(uneven).batchSize(5).shuffle(true).seed(3).build()) {
            inOrder = pass(loader);
        }
        try (DataLoader<Long> loader = DataLoader.builder(uneven).batchSize(5).shuffle(true).seed(3)
                .numWorkers(4).inOrder(false).build()) {
            List<String> asReady = pass(loader);
            assertThat(asReady).containsExactlyInAnyOrderElementsOf(inOrder);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void noMoreThanPrefetchTimesWorkersBatchesAreInFlight() {
        int workers = 3;
        int prefetch = 2;
        AtomicInteger made = new AtomicInteger();
        AtomicInteger requested = new AtomicInteger();
        AtomicBoolean exceeded = new AtomicBoolean();
        Collate<Long> counting = (samples, memory) -> {
            if (made.incrementAndGet() > prefetch * workers + requested.get()) {
                exceeded.set(true);
            }
            return DefaultCollate.instance().collate(samples, memory);
        };
        for (boolean inOrder : new boolean[] {true, false}) {
            made.set(0);
            requested.set(0);
            try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(300)).batchSize(3)
                    .numWorkers(workers).prefetchFactor(prefetch).inOrder(inOrder).collate(counting).build()) {
                BatchIterator it = loader.iterator();
                while (made.get() < prefetch * workers) {
                    Thread.onSpinWait(); // the workers fill their slots, then stop
                }
                int count = 0;
                while (true) {
                    requested.incrementAndGet();
                    if (!it.hasNext()) {
                        break;
                    }
                    it.next().close();
                    count++;
                }
                assertThat(count).isEqualTo(100);
                assertThat(made.get()).isEqualTo(100);
            }
            assertThat(exceeded).as("more than prefetch x workers batches made ahead").isFalse();
        }
    }

    @Test
    void workersStartAndStopWithEachPassUnlessPersistent() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(40)).batchSize(4).numWorkers(3)
                .build()) {
            for (int epoch = 0; epoch < 2; epoch++) {
                BatchIterator it = loader.iterator();
                it.next().close();
                assertThat(WorkerThreads.alive()).hasSize(3);
                it.forEachRemaining(Batch::close); // the end of the pass stops its threads
                assertThat(WorkerThreads.alive()).isEmpty();
            }
        }
        Set<Thread> first;
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(40)).batchSize(4).numWorkers(3)
                .persistentWorkers(true).build()) {
            pass(loader);
            first = WorkerThreads.alive();
            assertThat(first).hasSize(3).extracting(Thread::getName)
                    .containsExactlyInAnyOrder("stoker-worker-0", "stoker-worker-1", "stoker-worker-2");
            pass(loader);
            assertThat(WorkerThreads.alive()).isEqualTo(first); // the same threads
        }
        assertThat(first).noneMatch(Thread::isAlive);
    }

    @Test
    void closingAPassEarlyStopsItsWorkersAndFreesItsBatches() {
        CountingDataset slow = new CountingDataset("slow", 200, 0) {
            @Override
            protected Long fetch(long index) {
                sleep(2);
                return super.fetch(index);
            }
        };
        for (boolean persistent : new boolean[] {false, true}) {
            try (DataLoader<Long> loader = DataLoader.builder(slow).batchSize(4).numWorkers(4).prefetchFactor(3)
                    .persistentWorkers(persistent).build()) {
                for (Batch b : loader) {
                    b.close();
                    if (b.index() == 2) {
                        break;
                    }
                }
                BatchIterator it = loader.iterator(); // closes the pass left by the break
                it.next().close();
                it.close();
                assertThat(it.hasNext()).isFalse();
                assertThat(loader.pool().lentBytes()).isZero();
                assertThat(WorkerThreads.alive()).hasSize(persistent ? 4 : 0);
                assertThat(pass(loader)).hasSize(50); // and the next pass is whole
            }
            assertThat(WorkerThreads.alive()).isEmpty();
        }
    }

    @Test
    void closingTheLoaderMidPassFromAnotherThreadEndsIt() throws Exception {
        CountingDataset slow = new CountingDataset("slow", 1000, 0) {
            @Override
            protected Long fetch(long index) {
                sleep(5);
                return super.fetch(index);
            }
        };
        DataLoader<Long> loader = DataLoader.builder(slow).batchSize(8).numWorkers(2).build();
        BatchIterator it = loader.iterator();
        it.next().close();
        Thread closer = Thread.ofPlatform().start(loader::close);
        closer.join();
        assertThat(it.hasNext()).isFalse();
        assertThat(loader.pool().reservedBytes()).isZero();
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    @Test
    void aBatchedDatasetIsFetchedOncePerBatchByTheWorkers() {
        CountingDataset batched = CountingDataset.batched("batched", 50, 0);
        try (DataLoader<Long> loader = DataLoader.builder(batched).batchSize(4).numWorkers(3).build()) {
            assertThat(pass(loader)).hasSize(13);
            assertThat(batched.batches.get()).isEqualTo(13);
            assertThat(batched.gets.get()).isZero();
        }
    }

    @Test
    void statsCountTheWorkersBatches() {
        Dataset<Long> ds = new CountingDataset(30);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).numWorkers(2).build()) {
            pass(loader);
            assertThat(loader.stats().batches()).isEqualTo(8);
            assertThat(loader.stats().samples()).isEqualTo(30);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
