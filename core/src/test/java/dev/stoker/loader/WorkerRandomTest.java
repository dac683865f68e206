package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.random.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerRandomTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Sample i is a draw from the current worker's generator, as a random transform would make. */
    private static final class Draws implements Dataset<Long> {
        final List<String> where = new CopyOnWriteArrayList<>();

        @Override
        public long size() {
            return 48;
        }

        @Override
        public Long get(long index) {
            WorkerContext ctx = WorkerContext.current().orElseThrow();
            where.add(index + "@" + ctx.workerId() + "/" + ctx.numWorkers() + "@" + Thread.currentThread().getName());
            return WorkerContext.currentRandom().nextLong();
        }
    }

    private static List<Long> values(DataLoader<Long> loader) {
        List<Long> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                for (long v : b.tensor().toLongArray()) out.add(v);
            }
        }
        return out;
    }

    private static DataLoader<Long> loader(Draws ds, int workers, long seed) {
        return DataLoader.builder(ds).batchSize(4).numWorkers(workers).seed(seed).build();
    }

    @Test
    void eachBatchDrawsFromItsOwnReproducibleStream() {
        long seed = 99;
        List<Long> first;
        try (DataLoader<Long> a = loader(new Draws(), 3, seed); DataLoader<Long> b = loader(new Draws(), 3, seed)) {
            first = values(a);
            assertThat(values(b)).isEqualTo(first); // reproducible
            List<Long> second = values(a);
            assertThat(second).doesNotContainAnyElementsOf(first); // a new epoch, new draws
        }
        assertThat(first).hasSize(48).doesNotHaveDuplicates(); // never repeated across batches
        // the documented formula: batch b's generator is SplittableRandom(mix(seed, epoch, RANDOM_STREAM, rank, b));
        // with batch size 4, batch b holds samples 4b .. 4b + 3, in draw order
        for (int b = 0; b < 12; b++) {
            long s = Seeds.mix(seed, 0, WorkerContext.RANDOM_STREAM, 0, b);
            for (int j = 0; j < 4; j++) {
                assertThat(first.get(4 * b + j)).isEqualTo(Seeds.splitMix(s, j));
            }
        }
        for (int workers : new int[] {0, 1, 2, 5}) { // whoever makes the batch, the same draws
            try (DataLoader<Long> other = loader(new Draws(), workers, seed)) {
                assertThat(values(other)).as("%d workers", workers).isEqualTo(first);
            }
        }
        try (DataLoader<Long> c = loader(new Draws(), 3, seed + 1)) {
            assertThat(values(c)).doesNotContainAnyElementsOf(first);
        }
    }

    @Test
    void aStreamingWorkerDrawsFromItsBatchesStreams() {
        long seed = 5;
        StreamingDataset<Long> draws = ctx -> SampleStream.of(
                Stream.generate(() -> WorkerContext.currentRandom().nextLong()).limit(10).iterator());
        try (DataLoader<Long> loader = DataLoader.builder(draws).batchSize(4).numWorkers(2).seed(seed).build()) {
            List<Long> v = values(loader);
            // in turn: worker 0's batch 0, worker 1's batch 0, worker 0's batch 1, ...
            WorkerContext w1 = new WorkerContext(1, 2, 0, 1, 0, seed);
            assertThat(v.subList(4, 8)).containsExactly(Seeds.splitMix(w1.streamRandomSeed(0), 0),
                    Seeds.splitMix(w1.streamRandomSeed(0), 1), Seeds.splitMix(w1.streamRandomSeed(0), 2),
                    Seeds.splitMix(w1.streamRandomSeed(0), 3));
            assertThat(v.get(12)).isEqualTo(Seeds.splitMix(w1.streamRandomSeed(1), 0));
            assertThat(w1.streamRandomSeed(1)).isEqualTo(Seeds.mix(Seeds.mix(seed, 0, WorkerContext.RANDOM_STREAM, 1), 1));
            assertThat(v).hasSize(20).doesNotHaveDuplicates();
        }
    }

    @Test
    void withoutWorkersTheCallersThreadIsWorkerZeroOfOne() {
        Draws ds = new Draws();
        try (DataLoader<Long> loader = loader(ds, 0, 7)) {
            List<Long> v = values(loader);
            assertThat(v.get(0)).isEqualTo(Seeds.splitMix(Seeds.mix(7, 0, WorkerContext.RANDOM_STREAM, 0, 0), 0));
            assertThat(v.get(47)).isEqualTo(Seeds.splitMix(Seeds.mix(7, 0, WorkerContext.RANDOM_STREAM, 0, 11), 3));
            assertThat(ds.where).allMatch(w -> w.contains("@0/1@"));
        }
    }

    @Test
    void outsideALoaderThereIsNoCurrentWorker() {
        assertThat(WorkerContext.current()).isEmpty();
        assertThatThrownBy(WorkerContext::currentRandom).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not inside a loader's fetch");
    }

    @Test
    void workerInitRunsOncePerWorkerThread() {
        List<String> calls = new CopyOnWriteArrayList<>();
        Draws ds = new Draws();
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).numWorkers(3)
                .workerInit(ctx -> calls.add(ctx.workerId() + "/" + ctx.numWorkers() + " epoch " + ctx.epoch() + " on "
                        + Thread.currentThread().getName() + " " + WorkerContext.current().orElseThrow().equals(ctx)))
                .build()) {
            values(loader);
            values(loader);
        }
        // fresh threads each pass without persistent workers
        assertThat(calls).containsExactlyInAnyOrder(
                "0/3 epoch 0 on stoker-worker-0 true", "1/3 epoch 0 on stoker-worker-1 true",
                "2/3 epoch 0 on stoker-worker-2 true", "0/3 epoch 1 on stoker-worker-0 true",
                "1/3 epoch 1 on stoker-worker-1 true", "2/3 epoch 1 on stoker-worker-2 true");
        // the workers fetched in their own threads: batch k by worker k % 3
        assertThat(ds.where).allMatch(w -> {
            String[] p = w.split("@");
            long k = Long.parseLong(p[0]) / 4;
            return p[1].equals(k % 3 + "/3") && p[2].equals("stoker-worker-" + k % 3);
        });

        calls.clear();
        try (DataLoader<Long> loader = DataLoader.builder(new Draws()).batchSize(4).numWorkers(3)
                .persistentWorkers(true).workerInit(ctx -> calls.add(ctx.workerId() + " epoch " + ctx.epoch()))
                .build()) {
            values(loader);
            values(loader);
            values(loader);
        }
        assertThat(calls).containsExactlyInAnyOrder("0 epoch 0", "1 epoch 0", "2 epoch 0");

        calls.clear();
        try (DataLoader<Long> loader = DataLoader.builder(new Draws()).batchSize(4)
                .workerInit(ctx -> calls.add("called")).build()) {
            values(loader);
        }
        assertThat(calls).isEmpty(); // no workers, no hook: as PyTorch
    }
}
