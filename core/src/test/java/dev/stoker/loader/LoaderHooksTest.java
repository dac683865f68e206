package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.metrics.StageClock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a report or a controller reads while a loader runs: the queue's depth and each batch as it is made. */
class LoaderHooksTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Samples of {@code floats} floats, sample i filled with i. */
    private record Floats(long size, int floats) implements Dataset<float[]> {
        @Override
        public float[] get(long index) {
            float[] out = new float[floats];
            java.util.Arrays.fill(out, index);
            return out;
        }
    }

    /** The same samples on the fill path: written into the batch, no collate. */
    private record FilledFloats(long size, int floats) implements FillableDataset<float[]> {
        @Override
        public float[] get(long index) {
            return new Floats(size, floats).get(index);
        }

        @Override
        public SampleLayout layout() {
            return SampleLayout.single(new SampleLayout.Field("x", DType.F32, Shape.of(floats)));
        }

        @Override
        public void fill(long index, SampleSlot slot) {
            Tensor x = slot.tensor("x");
            for (int i = 0; i < floats; i++) {
                x.setFloat(i, index);
            }
        }
    }

    @Test
    void theQueueFillsToWorkersTimesPrefetchWhileTheConsumerHoldsBack() {
        try (DataLoader<float[]> loader = DataLoader.builder(new Floats(200, 8)).batchSize(4).numWorkers(2)
                .prefetchFactor(2).build()) {
            assertThat(loader.queueDepth()).isZero(); // no pass yet
            BatchIterator it = loader.iterator();
            it.next().close();
            int depth = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // a bound on waiting, not a timing
            while (depth < 4 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
                depth = loader.queueDepth();
                assertThat(depth).isBetween(0, 4); // never more than the slots: 2 workers x prefetch 2
            }
            assertThat(depth).isEqualTo(4);
            it.next().close(); // one taken: the queue is one shorter until a worker refills it
            assertThat(loader.queueDepth()).isBetween(3, 4);
            it.close();
            assertThat(loader.queueDepth()).isZero(); // the pass is over: what was left went back
            assertThat(loader.pool().lentCount()).isZero();
        }
    }

    @Test
    void aLoaderWithoutWorkersHasNoQueue() {
        try (DataLoader<float[]> loader = DataLoader.builder(new Floats(20, 8)).batchSize(4).build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            assertThat(loader.queueDepth()).isZero();
            it.close();
        }
    }

    record Made(long epoch, long batch, int rows, long bytes, long start, long end) {}

    @ParameterizedTest(name = "numWorkers {0}, fill {1}")
    @CsvSource({"0, false", "3, false", "0, true", "3, true"})
    void everyBatchIsHeardOnceWithItsRowsAndBytes(int workers, boolean fill) {
        List<Made> made = new CopyOnWriteArrayList<>();
        Dataset<float[]> data = fill ? new FilledFloats(22, 8) : new Floats(22, 8);
        try (DataLoader<float[]> loader = DataLoader.builder(data).batchSize(4).numWorkers(workers).build()) {
            StageClock.Listening l = loader.stageClock().listenBatches((epoch, batch, rows, bytes, start, end) ->
                    made.add(new Made(epoch, batch, rows, bytes, start, end)));
            for (int epoch = 0; epoch < 2; epoch++) {
                for (Batch b : loader) {
                    b.close();
                }
            }
            l.close();
            for (Batch b : loader) { // not heard after the close
                b.close();
            }
            assertThat(made).hasSize(12); // 6 batches an epoch, 2 epochs: once each, not per sample
            assertThat(made.stream().map(m -> List.of(m.epoch(), m.batch())).distinct()).hasSize(12);
            assertThat(made).extracting(Made::rows).containsOnly(4, 2);
            assertThat(made.stream().mapToInt(Made::rows).sum()).isEqualTo(44);
            for (Made m : made) {
                assertThat(m.bytes()).as("%s", m).isGreaterThanOrEqualTo(m.rows() * 8L * Float.BYTES);
                assertThat(m.end()).as("%s", m).isGreaterThanOrEqualTo(m.start());
            }
            assertThat(loader.stats().batches()).isEqualTo(18);
        }
    }
}
