package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.WorkerContext;
import dev.stoker.memory.BufferPool;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The first batch of each lane of a worker pass is made by all its workers (the engine's {@code FirstBatches}):
 * the batches, their order, their draws and {@code state()}/{@code restore()} are those of a
 * loader without workers, on the fill path and the collate path, whether the samples draw from
 * the batch's generator or not; a failed sample is reported as before; and every batch goes back
 * to the pool, also when the loader is closed from another thread while the first batch is
 * being made.
 */
class SharedFirstBatchTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /**
     * {@link RandomLayoutDataset}, whose samples at {@code index % drawEvery == 0} (none with 0)
     * also XOR their first byte with a draw from the batch's generator, so that a sample's bytes
     * depend on the draws of the samples before it in its batch; every fetch noted by index and thread.
     */
    private static class Drawing extends RandomLayoutDataset {
        final int drawEvery;
        final Map<Long, List<String>> fetchedBy = new ConcurrentHashMap<>();
        final long sleepMillis;

        Drawing(long size, long seed, SampleLayout layout, int drawEvery, long sleepMillis) {
            super(size, seed, layout);
            this.drawEvery = drawEvery;
            this.sleepMillis = sleepMillis;
        }

        private void noteAndWait(long index) {
            fetchedBy.computeIfAbsent(index, i -> new java.util.concurrent.CopyOnWriteArrayList<>())
                    .add(Thread.currentThread().getName());
            if (sleepMillis > 0) {
                try {
                    Thread.sleep(sleepMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }

        private byte draw(long index) {
            return drawEvery > 0 && index % drawEvery == 0 ? (byte) WorkerContext.currentRandom().nextInt() : 0;
        }

        @Override
        public Object get(long index) {
            noteAndWait(index);
            Object sample = super.get(index);
            byte d = draw(index);
            MemorySegment first = switch (sample) {
                case dev.stoker.tensor.Tensor t -> t.segment();
                case List<?> l -> ((dev.stoker.tensor.Tensor) l.getFirst()).segment();
                case Map<?, ?> m -> ((dev.stoker.tensor.Tensor) m.values().iterator().next()).segment();
                default -> throw new AssertionError(sample);
            };
            xorFirst(first, d);
            return sample;
        }

        @Override
        public void fill(long index, SampleSlot slot) {
            noteAndWait(index);
            super.fill(index, slot);
            xorFirst(slot.tensor(0).segment(), draw(index));
        }

        private static void xorFirst(MemorySegment s, byte d) {
            if (s.byteSize() > 0 && d != 0) {
                s.set(ValueLayout.JAVA_BYTE, 0, (byte) (s.get(ValueLayout.JAVA_BYTE, 0) ^ d));
            }
        }
    }

    private record Setup(long size, int batchSize, boolean dropLast, boolean fill, long seed, SampleLayout layout,
                         int drawEvery) {
        static Setup random(SplittableRandom rnd) {
            SampleLayout layout;
            do {
                layout = RandomLayoutDataset.randomLayout(rnd);
            } while (layout.field(0).bytes() == 0);
            return new Setup(rnd.nextInt(1, 60), rnd.nextInt(1, 12), rnd.nextBoolean(), rnd.nextBoolean(),
                    rnd.nextLong(), layout, rnd.nextInt(4)); // drawEvery 0 (none), 1 (all), 2, 3
        }

        Drawing dataset() {
            return new Drawing(size, seed, layout, drawEvery, 0);
        }

        LoaderBuilder<Object> builder(Drawing ds, int workers) {
            LoaderBuilder<Object> b = DataLoader.builder((dev.stoker.data.Dataset<Object>) ds).batchSize(batchSize)
                    .dropLast(dropLast).shuffle(true).seed(seed).numWorkers(workers);
            return fill ? b : b.collate(DefaultCollate.instance());
        }
    }

    private static String describe(Batch b) {
        return Arrays.toString(b.indices()) + " " + FillPathTest.describe(b.data());
    }

    private static List<String> epochs(DataLoader<?> loader, int epochs) {
        List<String> out = new ArrayList<>();
        for (int e = 0; e < epochs; e++) {
            for (Batch b : loader) {
                try (b) {
                    out.add(describe(b));
                }
            }
        }
        return out;
    }

    @Test
    void theBatchesAreThoseOfALoaderWithoutWorkers() {
        SplittableRandom rnd = new SplittableRandom(20261125);
        for (int trial = 0; trial < 60; trial++) {
            Setup s = Setup.random(rnd);
            List<String> expected;
            try (DataLoader<Object> serial = s.builder(s.dataset(), 0).build()) {
                expected = epochs(serial, 2);
            }
            int workers = rnd.nextInt(2, 5);
            boolean persistent = rnd.nextBoolean();
            try (DataLoader<Object> loader = s.builder(s.dataset(), workers).persistentWorkers(persistent)
                    .prefetchFactor(rnd.nextInt(1, 4)).build()) {
                assertThat(epochs(loader, 2)).as("trial %d: %s, %d workers", trial, s, workers).isEqualTo(expected);
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
    }

    @Test
    void aRestoredStateGoesOnWithTheSameBatches() {
        SplittableRandom rnd = new SplittableRandom(77);
        for (int trial = 0; trial < 30; trial++) {
            Setup s = Setup.random(rnd);
            List<String> expected;
            try (DataLoader<Object> serial = s.builder(s.dataset(), 0).build()) {
                expected = epochs(serial, 1);
            }
            if (expected.isEmpty()) {
                continue;
            }
            int stop = rnd.nextInt(expected.size());
            int before = rnd.nextInt(0, 4);
            int after = rnd.nextInt(2, 5);
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<Object> loader = s.builder(s.dataset(), before).build()) {
                BatchIterator it = loader.iterator();
                for (int k = 0; k < stop; k++) {
                    try (Batch b = it.next()) {
                        seen.add(describe(b));
                    }
                }
                state = loader.state();
            }
            try (DataLoader<Object> loader = s.builder(s.dataset(), after).build()) {
                loader.restore(state); // the resumed pass's first batch is shared out in its turn
                seen.addAll(epochs(loader, 1));
            }
            assertThat(seen).as("trial %d: stop after %d, workers %d -> %d", trial, stop, before, after)
                    .isEqualTo(expected);
        }
    }

    @Test
    void eachLanesFirstBatchIsMadeBySeveralWorkersAndTheNextByTheirOwn() {
        SampleLayout layout = new SampleLayout(SampleLayout.Form.TENSOR,
                List.of(new SampleLayout.Field("x", dev.stoker.tensor.DType.I64, dev.stoker.tensor.Shape.of(2))));
        for (boolean fill : new boolean[] {true, false}) {
            Drawing ds = new Drawing(128, 3, layout, 0, 3);
            LoaderBuilder<Object> b = DataLoader.builder((dev.stoker.data.Dataset<Object>) ds).batchSize(16)
                    .numWorkers(4);
            try (DataLoader<Object> loader = (fill ? b : b.collate(DefaultCollate.instance())).build()) {
                epochs(loader, 1);
            }
            Set<String> firstBatch = ConcurrentHashMap.newKeySet();
            for (long i = 0; i < 64; i++) { // batches 0-3, the lanes' first
                assertThat(ds.fetchedBy.get(i)).as("sample %d", i).hasSize(1) // made once
                        .allMatch(t -> t.startsWith("stoker-worker-"));
                if (i < 16) {
                    firstBatch.addAll(ds.fetchedBy.get(i));
                }
            }
            assertThat(firstBatch).as("fill %s", fill).hasSizeGreaterThan(1);
            for (long i = 64; i < 128; i++) { // batch k by worker k % 4 alone
                assertThat(ds.fetchedBy.get(i)).as("sample %d", i).containsExactly("stoker-worker-" + (i / 16) % 4);
            }
        }
    }

    @Test
    void samplesThatDrawFromTheBatchGeneratorAreMadeOnceByTheBatchsWorker() {
        SampleLayout layout = new SampleLayout(SampleLayout.Form.TENSOR,
                List.of(new SampleLayout.Field("x", dev.stoker.tensor.DType.U8, dev.stoker.tensor.Shape.of(3))));
        Drawing ds = new Drawing(40, 5, layout, 1, 1); // every sample draws
        try (DataLoader<Object> loader = DataLoader.builder((dev.stoker.data.Dataset<Object>) ds).batchSize(8)
                .numWorkers(3).build()) {
            epochs(loader, 2);
        }
        for (long i = 0; i < 40; i++) {
            // twice: one per epoch, each on the thread of worker (batch % 3)
            assertThat(ds.fetchedBy.get(i)).as("sample %d", i).containsOnly("stoker-worker-" + (i / 8) % 3)
                    .hasSize(2);
        }
    }

    @Test
    void aSampleThatFailsInTheSharedBatchIsReportedByItsIndex() {
        SampleLayout layout = new SampleLayout(SampleLayout.Form.MAP,
                List.of(new SampleLayout.Field("x", dev.stoker.tensor.DType.F32, dev.stoker.tensor.Shape.of(2))));
        for (boolean fill : new boolean[] {true, false}) {
            for (long bad : new long[] {0, 5, 11}) {
                RandomLayoutDataset ds = new RandomLayoutDataset(24, 1, layout) {
                    @Override
                    public Object get(long index) {
                        fail(index);
                        return super.get(index);
                    }

                    @Override
                    public void fill(long index, SampleSlot slot) {
                        slot.tensor(0); // asks for its field, which the report names
                        fail(index);
                        super.fill(index, slot);
                    }

                    private void fail(long index) {
                        if (index == bad) {
                            throw new IllegalStateException("bad sample " + index);
                        }
                    }
                };
                LoaderBuilder<Object> b = DataLoader.builder((dev.stoker.data.Dataset<Object>) ds).batchSize(12)
                        .numWorkers(3);
                try (DataLoader<Object> loader = (fill ? b : b.collate(DefaultCollate.instance())).build()) {
                    BatchIterator it = loader.iterator();
                    if (bad < 12) {
                        assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                                .hasMessageContaining((fill ? "filling field 'x' of sample " : "fetching sample ")
                                        + bad + " for batch 0")
                                .hasRootCauseMessage("bad sample " + bad);
                    }
                    try (Batch second = it.next()) { // the pass goes on
                        assertThat(second.indices()).startsWith(12);
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
            }
        }
    }

    @Test
    void closedFromAnotherThreadWhileTheFirstBatchIsSharedEveryBatchGoesBack() throws Exception {
        SampleLayout layout = new SampleLayout(SampleLayout.Form.TENSOR,
                List.of(new SampleLayout.Field("x", dev.stoker.tensor.DType.F32, dev.stoker.tensor.Shape.of(256))));
        SplittableRandom rnd = new SplittableRandom(5);
        try (BufferPool pool = BufferPool.builder().name("shared-close").budgetBytes(16L << 20).build()) {
            for (int round = 0; round < 40; round++) {
                boolean fill = rnd.nextBoolean();
                Drawing ds = new Drawing(64, round, layout, 0, 1);
                AtomicInteger started = new AtomicInteger();
                LoaderBuilder<Object> b = DataLoader.builder((dev.stoker.data.Dataset<Object>) ds).batchSize(32)
                        .numWorkers(rnd.nextInt(2, 5)).pool(pool);
                DataLoader<Object> loader = (fill ? b : b.collate(DefaultCollate.instance())).build();
                CountDownLatch going = new CountDownLatch(1);
                Thread consumer = Thread.ofPlatform().start(() -> {
                    try (BatchIterator it = loader.iterator()) {
                        going.countDown();
                        while (it.hasNext()) {
                            it.next().close();
                            started.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        // closed under it: ends as it may
                    }
                });
                assertThat(going.await(10, TimeUnit.SECONDS)).isTrue();
                Thread.sleep(rnd.nextInt(0, 20)); // somewhere in the first batch's 32 samples of 1 ms
                loader.close();
                consumer.join(10_000);
                assertThat(consumer.isAlive()).isFalse();
                assertThat(pool.lentBytes()).as("round %d", round).isZero();
            }
        }
    }
}
