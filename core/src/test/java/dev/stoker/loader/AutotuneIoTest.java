package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.Dataset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The controller in the I/O mode, end to end: for a dataset that sleeps per sample (a stand-in
 * for remote storage) it raises the samples fetched at once from 1 rather than adding workers,
 * and the consumer stops waiting; under a tight budget it feeds the consumer that way without
 * passing the budget.
 */
class AutotuneIoTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Each get sleeps {@code millis} (blocked, as on a remote read) and returns {@code floats} floats. */
    private static final class Remote implements Dataset<float[]> {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        private final long size;
        private final int floats;
        private final long millis;

        Remote(long size, int floats, long millis) {
            this.size = size;
            this.floats = floats;
            this.millis = millis;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public float[] get(long index) {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return new float[floats];
        }
    }

    /** Takes every batch of {@code epochs} passes with a step of {@code stepMillis}; each batch's wait, in order. */
    private static List<Long> run(DataLoader<float[]> loader, int epochs, long stepMillis) {
        List<Long> waits = new ArrayList<>();
        for (int e = 0; e < epochs; e++) {
            var it = loader.iterator();
            while (true) {
                long asked = System.nanoTime();
                if (!it.hasNext()) {
                    break;
                }
                try (Batch b = it.next()) {
                    waits.add(System.nanoTime() - asked);
                    LockSupport.parkNanos(stepMillis * 1_000_000);
                }
            }
        }
        return waits;
    }

    private static long sum(List<Long> waits, int from, int to) {
        return waits.subList(from, to).stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void blockedWorkersGetMoreFetchesAtOnceFromALowStartUntilTheConsumerNoLongerWaits() {
        Remote remote = new Remote(16 * 40, 4, 2); // 40 batches of 16 an epoch, 2 ms a sample: 32 ms a batch at 1
        try (DataLoader<float[]> loader = DataLoader.builder(remote).batchSize(16).ioConcurrency(64)
                .autotune(Autotune.budget(64L << 20).maxWorkers(2)).build()) {
            assertThat(loader.stats().ioConcurrency()).isEqualTo(1); // the low start
            // epochs until the tuner raised the count to 8 or more (a busy machine's windows are longer),
            // then one more to measure the wait at what it raised
            List<Long> waits = new ArrayList<>();
            for (int e = 0; e < 12 && loader.tuningLog().stream().noneMatch(d -> d.ioConcurrency() >= 8); e++) {
                waits.addAll(run(loader, 1, 4));
            }
            waits.addAll(run(loader, 1, 4));
            List<TuningDecision> log = loader.tuningLog();
            assertThat(log.getFirst()).isEqualTo(new TuningDecision(0, 1, 1, TuningDecision.Reason.START,
                    Double.NaN, 1));
            // the waits on I/O raised the fetches at once, doubling, past a batch's half
            List<TuningDecision> raised = log.stream()
                    .filter(d -> d.reason() == TuningDecision.Reason.WAITS_ON_IO).toList();
            assertThat(raised).isNotEmpty();
            assertThat(raised).extracting(TuningDecision::ioConcurrency).isSorted();
            assertThat(raised.getLast().ioConcurrency()).isGreaterThanOrEqualTo(8);
            assertThat(raised).allSatisfy(d -> assertThat(d.waitShare()).isGreaterThan(TuningPolicy.WAITS));
            // and the consumer waited less for its last 40 batches than for 8 at the start (32 ms each at 1)
            int n = waits.size();
            assertThat(sum(waits, n - 40, n)).as("waits %s, log %s", waits, log).isLessThan(sum(waits, 1, 9));
            // visible: stats, each change logged with its count
            assertThat(loader.stats().ioConcurrency()).isEqualTo(log.getLast().ioConcurrency());
            assertThat(loader.profile().ioConcurrency()).isEqualTo(log.getLast().ioConcurrency());
            assertThat(log.getLast().describe()).contains(log.getLast().ioConcurrency() + " fetches at once");
            // never more fetches at once than the most the tuner set
            assertThat(remote.most.get()).isLessThanOrEqualTo(
                    log.stream().mapToInt(TuningDecision::ioConcurrency).max().orElseThrow());
        }
    }

    @Test
    void underATightBudgetFetchesAtOnceFeedTheConsumerAndTheBudgetHolds() {
        int floats = 16 * 1024; // 64 KiB a sample, 1 MiB a batch of 16
        long batchBytes = 16L * floats * Float.BYTES;
        long budget = 3 * batchBytes; // the consumer's batch and two in flight
        Remote remote = new Remote(16 * 24, floats, 2);
        try (DataLoader<float[]> loader = DataLoader.builder(remote).batchSize(16).ioConcurrency(64)
                .autotune(Autotune.budget(budget).maxWorkers(4).maxPrefetch(4)).build()) {
            run(loader, 3, 2);
            List<TuningDecision> log = loader.tuningLog();
            assertThat(loader.pool().budgetBytes()).isEqualTo(budget);
            assertThat(loader.pool().peakReservedBytes()).isLessThanOrEqualTo(budget);
            for (TuningDecision d : log) {
                assertThat(((long) d.workers() * d.prefetch() + 1) * batchBytes).as("%s", d)
                        .isLessThanOrEqualTo(budget);
                // the samples in flight are the batches' being made: never more fetches than their samples
                assertThat(d.ioConcurrency()).as("%s", d).isBetween(1, 16 * Math.max(1, d.workers()));
            }
            assertThat(log).anySatisfy(d -> assertThat(d.reason()).isEqualTo(TuningDecision.Reason.WAITS_ON_IO));
            assertThat(remote.most.get()).isLessThanOrEqualTo(
                    log.stream().mapToInt(TuningDecision::ioConcurrency).max().orElseThrow());
        }
    }

    @Test
    void withoutTheIoModeOrWhereItDoesNotApplyTheTunerSetsNoFetchesAtOnce() {
        try (DataLoader<float[]> loader = DataLoader.builder(new Remote(64, 4, 0)).batchSize(8)
                .autotune(Autotune.budget(1L << 20).maxWorkers(2)).build()) {
            run(loader, 1, 0);
            assertThat(loader.tuningLog()).allMatch(d -> d.ioConcurrency() == 0);
            assertThat(loader.stats().ioConcurrency()).isZero();
        }
        // nor where the I/O mode does not apply: a dataset with its own batched fetch, one call a batch
        Dataset<float[]> batched = new Dataset<>() {
            @Override
            public long size() {
                return 64;
            }

            @Override
            public float[] get(long index) {
                return new float[4];
            }

            @Override
            public List<float[]> getBatch(long[] indices) {
                return java.util.Arrays.stream(indices).mapToObj(this::get).toList();
            }
        };
        try (DataLoader<float[]> loader = DataLoader.builder(batched).batchSize(8).ioConcurrency(16)
                .autotune(Autotune.budget(1L << 20).maxWorkers(2)).build()) {
            run(loader, 1, 0);
            assertThat(loader.tuningLog()).allMatch(d -> d.ioConcurrency() == 0);
            assertThat(loader.stats().ioConcurrency()).isZero();
            assertThat(loader.profile().ioConcurrency()).isZero();
        }
    }
}
