package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.data.WorkerContext;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IoConcurrencyTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    private static List<String> images(DataLoader<SyntheticSample> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                out.add(Arrays.toString(b.indices()) + Arrays.toString(b.tensor("image").toFloatArray())
                        + Arrays.toString(b.tensor("label").toLongArray()));
            }
        }
        return out;
    }

    @Test
    void theIoModeDeliversTheSameBatchesAsSerial() {
        // W1 in small: a 2 ms sleep per sample
        SyntheticDataset ds = SyntheticDataset.builder().size(48).shape(Shape.of(3, 4, 4))
                .delay(Duration.ofMillis(2)).seed(1).build();
        List<String> serial;
        try (DataLoader<SyntheticSample> loader = DataLoader.builder(ds).batchSize(8).shuffle(true).seed(2)
                .collate(dev.stoker.collate.DefaultCollate.instance()).build()) {
            serial = images(loader);
        }
        for (int workers : new int[] {0, 2}) {
            try (DataLoader<SyntheticSample> loader = DataLoader.builder(ds).batchSize(8).shuffle(true).seed(2)
                    .collate(dev.stoker.collate.DefaultCollate.instance())
                    .numWorkers(workers).ioConcurrency(16).build()) {
                assertThat(images(loader)).as(workers + " workers").isEqualTo(serial);
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
    }

    @Test
    void aFillableDatasetKeepsTheFillPathAndFillsItsRowsAtOnce() {
        SyntheticDataset ds = SyntheticDataset.builder().size(48).shape(Shape.of(3, 4, 4))
                .delay(Duration.ofMillis(2)).seed(1).build();
        List<String> serial;
        try (DataLoader<SyntheticSample> loader = DataLoader.builder(ds).batchSize(8).shuffle(true).seed(2).build()) {
            serial = images(loader);
        }
        for (int workers : new int[] {0, 2}) {
            try (DataLoader<SyntheticSample> loader = DataLoader.builder(ds).batchSize(8).shuffle(true).seed(2)
                    .numWorkers(workers).ioConcurrency(16).build()) {
                assertThat(loader.inFlightBound().measured()).as("the fill path: known before the first batch")
                        .isFalse();
                assertThat(images(loader)).as(workers + " workers").isEqualTo(serial);
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }

        int concurrency = 4;
        CyclicBarrier together = new CyclicBarrier(concurrency); // passes only if 4 fills wait at once
        AtomicInteger gets = new AtomicInteger();
        AtomicBoolean wait = new AtomicBoolean(true);
        FillableDataset<Long> remote = new FillableDataset<>() {
            public long size() {
                return 16;
            }

            public Long get(long index) {
                gets.incrementAndGet();
                return index;
            }

            public SampleLayout layout() {
                return SampleLayout.single(new SampleLayout.Field("x", DType.I64, Shape.scalar()));
            }

            public void fill(long index, SampleSlot slot) {
                if (index == 13) {
                    throw new IllegalStateException("503 for sample 13");
                }
                try {
                    if (wait.get()) {
                        together.await(5, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    throw new IllegalStateException("fills did not run together", e);
                }
                slot.tensor(0).setLong(0, index * 10);
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(remote).batchSize(4).ioConcurrency(concurrency).build()) {
            BatchIterator it = loader.iterator();
            for (int k = 0; k < 3; k++) {
                try (Batch b = it.next()) {
                    assertThat(b.tensor().toLongArray()).containsExactly(40L * k, 40L * k + 10, 40L * k + 20,
                            40L * k + 30);
                }
            }
            wait.set(false); // batch 3 has the bad sample: its other fills would wait for a fourth in vain
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e.getMessage()).startsWith("dataset '");
            assertThat(e.getMessage()).contains("filling sample 13 for batch 3 of epoch 0");
            assertThat(e.failedIndex()).hasValue(13);
            assertThat(gets.get()).as("filled, never fetched").isZero();
            it.close();
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void theSamplesOfABatchAreFetchedAtOnceUpToTheConcurrency() {
        int concurrency = 4;
        CyclicBarrier together = new CyclicBarrier(concurrency); // passes only if 4 fetches wait at once
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountingDataset ds = new CountingDataset("remote", 32, 0) {
            @Override
            protected Long fetch(long index) {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    together.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    throw new IllegalStateException("fetches did not run together", e);
                } finally {
                    running.decrementAndGet();
                }
                return super.fetch(index);
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(8).ioConcurrency(concurrency).build()) {
            List<Long> seen = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    for (long v : b.tensor().toLongArray()) seen.add(v);
                }
            }
            assertThat(seen).hasSize(32).isSorted();
        }
        assertThat(most.get()).isEqualTo(concurrency);
    }

    @Test
    void aFailedFetchIsNamedByItsSample() {
        CountingDataset ds = new CountingDataset("remote", 20, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == 6) {
                    throw new IllegalStateException("503 for sample 6");
                }
                return super.fetch(index);
            }
        };
        for (int workers : new int[] {0, 2}) {
            try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).numWorkers(workers).ioConcurrency(8)
                    .build()) {
                BatchIterator it = loader.iterator();
                it.next().close();
                LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
                assertThat(e.getMessage()).startsWith("dataset 'remote': fetching sample 6 for batch 1 of epoch 0 "
                        + "failed: IllegalStateException: 503 for sample 6 (batch samples [4, 5, 6, 7])");
                assertThat(e.failedIndex()).hasValue(6);
                assertThat(e.getCause()).hasMessage("503 for sample 6");
                assertThat(e.worker().isPresent()).isEqualTo(workers > 0);
                try (Batch next = it.next()) {
                    assertThat(next.index()).isEqualTo(2);
                }
                it.close();
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
    }

    @Test
    void eachFetchHasAGeneratorOfItsOwn() {
        dev.stoker.data.Dataset<Long> draws = new dev.stoker.data.Dataset<>() {
            public long size() {
                return 16;
            }

            public Long get(long index) {
                return WorkerContext.currentRandom().nextLong();
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(draws).batchSize(8).seed(3).numWorkers(2)
                .ioConcurrency(8).build()) {
            List<Long> v = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    for (long x : b.tensor().toLongArray()) v.add(x);
                }
            }
            // sample 9 is in batch 1: its fetch draws from mix(batch 1's seed, 9)
            long batchSeed = Seeds.mix(3, 0, WorkerContext.RANDOM_STREAM, 0, 1);
            assertThat(v.get(9)).isEqualTo(Seeds.splitMix(Seeds.mix(batchSeed, 9), 0));
            assertThat(v).doesNotHaveDuplicates();
        }
    }

    @Test
    void theNewSettingsAreChecked() {
        assertThatThrownBy(() -> DataLoader.builder(new CountingDataset(4)).ioConcurrency(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ioConcurrency");
        assertThatThrownBy(() -> DataLoader.builder(new CountingDataset(4)).workerInit(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void aStreamingDatasetTakesWorkersNotIoConcurrency() {
        dev.stoker.data.StreamingDataset<Long> s = ctx -> dev.stoker.data.SampleStream.of(List.of(1L).iterator());
        assertThatThrownBy(() -> DataLoader.builder(s).ioConcurrency(4).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("numWorkers");
    }
}
