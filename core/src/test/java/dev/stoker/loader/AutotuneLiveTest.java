package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The live controller end to end: it adds workers for a consumer that waits, and holds a tight budget. */
class AutotuneLiveTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** A dataset whose batches take a while and whose samples are {@code floats} floats. */
    private record Slow(long size, int floats, long sleepMillis) implements Dataset<float[]> {
        @Override
        public float[] get(long index) {
            try {
                Thread.sleep(sleepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new float[floats];
        }
    }

    @Test
    void aConsumerThatOnlyWaitsGetsMoreWorkersAndEveryChangeIsLogged() {
        try (DataLoader<float[]> loader = DataLoader.builder(new Slow(600, 4, 2)).batchSize(2)
                .autotune(Autotune.budget(64L << 20).maxWorkers(4)).build()) {
            for (Batch b : loader) { // no step at all: the consumer waits for every batch
                b.close();
            }
            List<TuningDecision> log = loader.tuningLog();
            assertThat(log.getFirst()).isEqualTo(new TuningDecision(0, 1, 1, TuningDecision.Reason.START, Double.NaN));
            // a waiting consumer got more (workers, or prefetch where other processes keep the cores busy)
            assertThat(log).anySatisfy(d -> {
                assertThat(d.reason()).isEqualTo(TuningDecision.Reason.CONSUMER_WAITS);
                assertThat(d.workers() + d.prefetch()).isGreaterThan(2);
            });
            assertThat(loader.stats().workers()).isEqualTo(log.getLast().workers());
            assertThat(loader.stats().prefetch()).isEqualTo(log.getLast().prefetch());
            assertThat(loader.stats().tuningChanges()).isEqualTo(log.size());
            assertThat(log).extracting(TuningDecision::batch).isSorted();
        }
    }

    @Test
    void fromZeroWorkersTheConsumerMakesTheFirstBatchesUntilTheTunerAddsOne() {
        Slow data = new Slow(400, 4, 1);
        List<String> expected = new ArrayList<>();
        try (DataLoader<float[]> fixed = DataLoader.builder(data).batchSize(4).shuffle(true).seed(7).numWorkers(3)
                .build()) {
            for (Batch b : fixed) {
                try (b) {
                    expected.add(java.util.Arrays.toString(b.indices()));
                }
            }
        }
        List<String> threads = new ArrayList<>();
        try (DataLoader<float[]> loader = DataLoader.builder(data).batchSize(4).shuffle(true).seed(7)
                .autotune(Autotune.budget(64L << 20).maxWorkers(3).startingAt(0)).build()) {
            List<String> got = new ArrayList<>();
            loader.stageClock().listenBatches((epoch, batch, rows, bytes, start, end) -> {
                synchronized (threads) {
                    threads.add(Thread.currentThread().getName());
                }
            });
            for (Batch b : loader) { // no step: the consumer waits for every batch
                try (b) {
                    got.add(java.util.Arrays.toString(b.indices()));
                }
            }
            assertThat(got).isEqualTo(expected); // the batches of 3 workers, whoever made them
            List<TuningDecision> log = loader.tuningLog();
            assertThat(log.getFirst()).isEqualTo(new TuningDecision(0, 0, 1, TuningDecision.Reason.START, Double.NaN));
            assertThat(log.get(1).workers()).isEqualTo(1); // the first window: a worker, whatever the cores
            assertThat(log.get(1).reason()).isEqualTo(TuningDecision.Reason.CONSUMER_WAITS);
            assertThat(log.stream().skip(1)).allMatch(d -> d.workers() >= 1);
        }
        String consumer = Thread.currentThread().getName();
        assertThat(threads).contains(consumer).anyMatch(t -> t.startsWith("stoker-worker-"));
    }

    @Test
    void aStreamCannotStartAtZeroWorkers() {
        assertThatThrownBy(() -> DataLoader.builder(new SlowStream(8, 1)).batchSize(2)
                .autotune(Autotune.budget(1L << 20).maxWorkers(2).startingAt(0)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot start at 0 workers: each lane of a streaming dataset reads its own stream");
    }

    @Test
    void aTightBudgetIsNeverPassed() {
        int floats = 64 * 1024; // 256 KiB a sample, 1 MiB a batch of 4
        long batchBytes = 4L * floats * Float.BYTES;
        long budget = 5 * batchBytes; // the consumer's batch and at most 4 in flight
        try (DataLoader<float[]> loader = DataLoader.builder(new Slow(200, floats, 1)).batchSize(4)
                .autotune(Autotune.budget(budget).maxWorkers(4).maxPrefetch(4)).build()) {
            for (Batch b : loader) {
                b.close();
            }
            assertThat(loader.pool().budgetBytes()).isEqualTo(budget);
            assertThat(loader.pool().peakReservedBytes()).isLessThanOrEqualTo(budget);
            for (TuningDecision d : loader.tuningLog()) {
                assertThat(((long) d.workers() * d.prefetch() + 1) * batchBytes).as("%s", d)
                        .isLessThanOrEqualTo(budget);
            }
        }
    }

    /** A fillable stream of {@code n} samples (worker w reads w, w + W, ...), each {@code floats} floats, slow to read. */
    private record SlowStream(long n, int floats) implements FillableStreamingDataset<Long> {
        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            return SampleStream.of(LongStream.iterate(ctx.globalWorkerId(), i -> i < n, i -> i + ctx.globalWorkers())
                    .peek(i -> LockSupport.parkNanos(200_000)).boxed().iterator());
        }

        @Override
        public SampleLayout layout() {
            return SampleLayout.single(new SampleLayout.Field("x", DType.F32, Shape.of(floats)));
        }

        @Override
        public void fill(Long sample, SampleSlot slot) {
            slot.tensor("x").setFloat(0, sample);
        }
    }

    @Test
    void aTightBudgetCutsAStreamsLanesSoThatTheirBatchesFit() {
        int floats = 16 * 1024; // 64 KiB a sample, 256 KiB a batch of 4
        long batchBytes = 4L * floats * Float.BYTES;
        long budget = 3 * batchBytes; // the consumer's batch and two in flight: two lanes, whatever the tuner does
        SlowStream stream = new SlowStream(160, floats);
        try (DataLoader<Long> loader = DataLoader.builder(stream).batchSize(4)
                .autotune(Autotune.budget(budget).maxWorkers(4).maxPrefetch(4)).build()) {
            assertThat(loader.numWorkers()).isEqualTo(2);
            List<Long> firsts = new ArrayList<>();
            for (int epoch = 0; epoch < 2; epoch++) {
                for (Batch b : loader) {
                    try (b) {
                        firsts.add((long) b.tensor().getFloat(0));
                    }
                }
            }
            assertThat(firsts).hasSize(2 * 40); // every batch came: no lane starved of memory
            assertThat(loader.pool().peakReservedBytes()).isLessThanOrEqualTo(budget);
            for (TuningDecision d : loader.tuningLog()) {
                assertThat((2L * d.prefetch() + 1) * batchBytes).as("%s", d).isLessThanOrEqualTo(budget);
            }
        }
        // the same stream with room for four lanes keeps them
        try (DataLoader<Long> loader = DataLoader.builder(stream).batchSize(4)
                .autotune(Autotune.budget(5 * batchBytes).maxWorkers(4)).build()) {
            assertThat(loader.numWorkers()).isEqualTo(4);
        }
    }

    /** The collate path's stream: {@code n} samples (worker w reads w, w + W, ...), each {@code floats} floats, slow. */
    private record SlowCollatedStream(long n, int floats) implements StreamingDataset<float[]> {
        @Override
        public SampleStream<float[]> open(WorkerContext ctx) {
            if (ctx.globalWorkerId() == 0) {
                LockSupport.parkNanos(50_000_000); // lane 0 starts last: the others' batches come first
            }
            return SampleStream.of(LongStream.iterate(ctx.globalWorkerId(), i -> i < n, i -> i + ctx.globalWorkers())
                    .peek(i -> LockSupport.parkNanos(200_000)).mapToObj(i -> {
                        float[] x = new float[floats];
                        x[0] = i;
                        return x;
                    }).iterator());
        }
    }

    private static List<Float> firsts(DataLoader<float[]> loader, int epochs) {
        List<Float> out = new ArrayList<>();
        for (int epoch = 0; epoch < epochs; epoch++) {
            for (Batch b : loader) {
                try (b) {
                    out.add(b.tensor().getFloat(0));
                }
            }
        }
        return out;
    }

    /**
     * On the collate path a batch's bytes come with the first batch, too late to choose the lanes
     * by (they decide the batches): the lanes stay, and the batches they hold at once are bounded
     * by the budget, taken in turn, so that the lane the consumer waits for always finds memory.
     */
    @Test
    @Timeout(20) // without the bound: three lanes hold the budget's memory, and the one awaited waits for it
    void aTightBudgetBoundsTheBatchesAStreamsLanesHoldOnTheCollatePath() {
        int floats = 16 * 1024; // 64 KiB a sample, 256 KiB a batch of 4
        long batchBytes = 4L * floats * Float.BYTES;
        long budget = 3 * batchBytes; // the consumer's batch and two in flight, of four lanes
        SlowCollatedStream stream = new SlowCollatedStream(160, floats);
        List<Float> expected;
        try (DataLoader<float[]> fixed = DataLoader.builder(stream).batchSize(4).numWorkers(4).build()) {
            expected = firsts(fixed, 2);
        }
        // four workers at once from the start: lanes 1 to 3 would take the three batches' memory before lane 0
        try (DataLoader<float[]> loader = DataLoader.builder(stream).batchSize(4).autotune(Autotune.budget(budget)
                .maxWorkers(4).maxPrefetch(4).replaying(List.of(TuningDecision.given(0, 4, 1)))).build()) {
            assertThat(loader.numWorkers()).isEqualTo(4); // the lanes stay: the batches are those of 4 workers
            assertThat(firsts(loader, 2)).isEqualTo(expected).hasSize(2 * 40);
            assertThat(loader.pool().peakReservedBytes()).isLessThanOrEqualTo(budget);
        }
        try (DataLoader<float[]> loader = DataLoader.builder(stream).batchSize(4)
                .autotune(Autotune.budget(budget).maxWorkers(4).maxPrefetch(4)).build()) {
            assertThat(firsts(loader, 2)).isEqualTo(expected);
            assertThat(loader.pool().peakReservedBytes()).isLessThanOrEqualTo(budget);
            assertThat(loader.pool().lentBytes()).isZero();
            // prefetch that could add no batch in flight was never asked for
            assertThat(loader.tuningLog()).allMatch(d -> d.prefetch() == 1);
        }
    }

    @Test
    void autotuneRefusesAFixedWorkerCount() {
        assertThatThrownBy(() -> DataLoader.builder(new Slow(10, 1, 0)).numWorkers(2).autotune(1L << 20).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("autotune chooses the workers");
    }
}
