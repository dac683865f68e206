package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.CountingDataset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerFailureTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    private static CountingDataset failingAt(Set<Long> bad) {
        return new CountingDataset("flaky", 200, 0) {
            @Override
            protected Long fetch(long index) {
                if (bad.contains(index)) {
                    throw new IllegalStateException("disk on fire at " + index);
                }
                return super.fetch(index);
            }
        };
    }

    @Test
    void aWorkersFailureComesAtItsBatchNamingTheSampleAndTheWorker() {
        CountingDataset ds = new CountingDataset("flaky", 10, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == 7) {
                    throw new IllegalStateException("disk on fire at 7");
                }
                return super.fetch(index);
            }
        };
        DataLoader<Long> loader = DataLoader.builder(ds).batchSize(3).numWorkers(2).build();
        BatchIterator it = loader.iterator();
        it.next().close();
        it.next().close();
        LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
        assertThat(e).hasMessage("dataset 'flaky': fetching sample 7 for batch 2 of epoch 0 failed: "
                + "IllegalStateException: disk on fire at 7 (batch samples [6, 7, 8]) (worker stoker-worker-0)");
        assertThat(e.worker()).hasValue("stoker-worker-0"); // batch 2 of 2 workers: worker 0
        assertThat(e.failedIndex()).hasValue(7);
        assertThat(e.batchIndex()).isEqualTo(2);
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("disk on fire at 7");
        assertThat(loader.stats().failedBatches()).isEqualTo(1);
        // the pass goes on, as without workers
        try (Batch last = it.next()) {
            assertThat(last.indices()).containsExactly(9);
        }
        assertThat(it.hasNext()).isFalse();
        loader.close();
        assertThat(loader.pool().stats().lentBytes()).isZero();
        assertThat(loader.pool().stats().reservedBytes()).isZero();
    }

    @Test
    void failuresAtRandomSamplesAndClosesAtRandomMomentsLoseNothing() {
        SplittableRandom rnd = new SplittableRandom(77);
        for (int trial = 0; trial < 40; trial++) {
            int n = rnd.nextInt(1, 150);
            int batchSize = rnd.nextInt(1, 6);
            Set<Long> bad = new HashSet<>();
            for (int i = rnd.nextInt(0, 4); i > 0; i--) {
                bad.add(rnd.nextLong(n));
            }
            int workers = rnd.nextInt(1, 6);
            boolean inOrder = rnd.nextBoolean();
            int stopAfter = rnd.nextBoolean() ? Integer.MAX_VALUE : rnd.nextInt(0, 30);
            String config = "trial " + trial;
            DataLoader<Long> loader = DataLoader.builder(failingAt(bad)).sampler(
                            new dev.stoker.sampler.SequentialSampler(n)).batchSize(batchSize)
                    .numWorkers(workers).prefetchFactor(rnd.nextInt(1, 4)).inOrder(inOrder)
                    .persistentWorkers(rnd.nextBoolean()).build();
            long expectedBatches = (n + batchSize - 1) / batchSize;
            List<Long> seen = new ArrayList<>();
            BatchIterator it = loader.iterator();
            int taken = 0;
            while (taken < stopAfter && it.hasNext()) {
                taken++;
                long k;
                try (Batch b = it.next()) {
                    k = b.index();
                    for (long i : b.indices()) {
                        assertThat(bad).as(config).doesNotContain(i);
                    }
                } catch (LoaderException e) {
                    k = e.batchIndex();
                    assertThat(bad).as(config).contains(e.failedIndex().orElseThrow());
                    assertThat(e.worker()).as(config).hasValue("stoker-worker-" + (k % workers));
                }
                if (inOrder) {
                    assertThat(k).as(config).isEqualTo(seen.size());
                }
                seen.add(k);
            }
            if (rnd.nextBoolean()) {
                it.close();
            }
            loader.close();
            assertThat(seen).as(config).doesNotHaveDuplicates();
            if (stopAfter == Integer.MAX_VALUE) {
                assertThat(seen).as(config).hasSize((int) expectedBatches);
            }
            assertThat(loader.pool().stats().lentBytes()).as(config).isZero();
            assertThat(loader.pool().stats().reservedBytes()).as(config).isZero();
            assertThat(WorkerThreads.alive()).as(config).isEmpty();
        }
    }

    @Test
    void aBatchNotReadyInTimeNamesTheWorkerAndItsSamples() {
        CountDownLatch never = new CountDownLatch(1);
        CountingDataset stuck = new CountingDataset("stuck", 20, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == 5) {
                    try {
                        never.await(); // until interrupted
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                }
                return super.fetch(index);
            }
        };
        DataLoader<Long> loader = DataLoader.builder(stuck).batchSize(2).numWorkers(2)
                .timeout(Duration.ofSeconds(1)).build(); // batches 0 and 1 must come within it, on a loaded machine too
        BatchIterator it = loader.iterator();
        it.next().close();
        it.next().close();
        LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
        assertThat(e.getMessage()).startsWith("dataset 'stuck': waiting for batch 2 of epoch 0 failed: "
                        + "TimeoutException: no batch within 1000 ms: stoker-worker-0 has been making batch 2 for ")
                .endsWith("(batch samples [4, 5]) (worker stoker-worker-0)");
        assertThat(e.worker()).hasValue("stoker-worker-0");
        assertThat(e.indices()).containsExactly(4, 5);
        assertThat(e.getCause()).isInstanceOf(TimeoutException.class);
        assertThat(e.getCause().getStackTrace()).anyMatch(f -> f.getMethodName().equals("fetch"));
        assertThat(it.hasNext()).isFalse(); // a timeout ends the pass
        assertThat(WorkerThreads.alive()).isEmpty();
        loader.close();
        assertThat(loader.pool().stats().reservedBytes()).isZero();
    }

    @Test
    void aTimeoutOutOfOrderNamesTheBusyWorker() {
        CountDownLatch never = new CountDownLatch(1);
        CountingDataset stuck = new CountingDataset("stuck", 4, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == 3) {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                }
                return super.fetch(index);
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(stuck).batchSize(1).numWorkers(3).inOrder(false)
                .timeout(Duration.ofSeconds(1)).build()) { // batches 0 to 2 must come within it, loaded or not
            BatchIterator it = loader.iterator();
            for (int i = 0; i < 3; i++) {
                it.next().close();
            }
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e.worker()).hasValue("stoker-worker-0"); // batch 3 of 3 workers
            assertThat(e.indices()).containsExactly(3);
        }
    }

    @Test
    void aFailingWorkerInitEndsThePass() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(20)).batchSize(2).numWorkers(2)
                .workerInit(ctx -> {
                    if (ctx.workerId() == 1) {
                        throw new IllegalStateException("no connection for worker 1");
                    }
                }).build()) {
            BatchIterator it = loader.iterator();
            it.next().close(); // worker 0's batch 0
            assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                    .hasMessageContaining("running workerInit before batch 1")
                    .hasMessageContaining("no connection for worker 1")
                    .hasMessageEndingWith("(worker stoker-worker-1)");
            assertThat(it.hasNext()).isFalse();
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void anErrorInAWorkerIsReportedNotLost() {
        CountingDataset deep = new CountingDataset("deep", 20, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == 4) {
                    throw new AssertionError("invariant broken at 4");
                }
                return super.fetch(index);
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(deep).batchSize(2).numWorkers(2).build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            it.next().close();
            assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                    .hasCauseInstanceOf(AssertionError.class)
                    .hasMessageStartingWith("dataset 'deep': fetching sample 4 for batch 2 of epoch 0 failed: AssertionError")
                    .hasMessageEndingWith("(worker stoker-worker-0)");
            try (Batch next = it.next()) {
                assertThat(next.index()).isEqualTo(3); // the pass goes on
            }
        }
    }
}
