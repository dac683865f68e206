package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StreamingWorkersTest {

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Samples 0..n-1; each worker reads those with {@code i % globalWorkers == globalWorkerId}. */
    private static final class Sharded implements StreamingDataset<Long> {
        final int n;
        final long failAt;
        final List<WorkerContext> opened = new CopyOnWriteArrayList<>();
        final AtomicInteger closed = new AtomicInteger();

        Sharded(int n, long failAt) {
            this.n = n;
            this.failAt = failAt;
        }

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            opened.add(ctx);
            var it = LongStream.range(0, n).filter(i -> i % ctx.globalWorkers() == ctx.globalWorkerId()).iterator();
            return new SampleStream<>() {
                public boolean hasNext() {
                    return it.hasNext();
                }

                public Long next() {
                    long v = it.nextLong();
                    if (v == failAt) {
                        throw new IllegalStateException("corrupt record " + v);
                    }
                    return v;
                }

                public void close() {
                    closed.incrementAndGet();
                }
            };
        }

        @Override
        public String name() {
            return "sharded";
        }
    }

    private static List<List<Long>> pass(DataLoader<Long> loader) {
        List<List<Long>> out = new ArrayList<>();
        long k = 0;
        for (Batch b : loader) {
            try (b) {
                assertThat(b.index()).isEqualTo(k++);
                List<Long> values = new ArrayList<>();
                for (long v : b.tensor().toLongArray()) values.add(v);
                out.add(values);
            }
        }
        return out;
    }

    @Test
    void eachWorkerReadsItsShareAndBatchesComeInTurn() {
        Sharded ds = new Sharded(10, -1);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(2).numWorkers(3).seed(4).build()) {
            // worker 0: 0 3 6 9; worker 1: 1 4 7; worker 2: 2 5 8 -- each ends with its own short batch
            assertThat(pass(loader)).containsExactly(List.of(0L, 3L), List.of(1L, 4L), List.of(2L, 5L),
                    List.of(6L, 9L), List.of(7L), List.of(8L));
            assertThat(ds.opened).containsExactlyInAnyOrder(new WorkerContext(0, 3, 0, 1, 0, 4),
                    new WorkerContext(1, 3, 0, 1, 0, 4), new WorkerContext(2, 3, 0, 1, 0, 4));
            assertThat(ds.closed).hasValue(3);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void exhaustedWorkersAreSkipped() {
        try (DataLoader<Long> loader = DataLoader.builder(new Sharded(7, -1)).batchSize(2).numWorkers(3).build()) {
            // worker 0: 0 3 6; worker 1: 1 4; worker 2: 2 5
            assertThat(pass(loader)).containsExactly(List.of(0L, 3L), List.of(1L, 4L), List.of(2L, 5L), List.of(6L));
        }
        try (DataLoader<Long> loader = DataLoader.builder(new Sharded(7, -1)).batchSize(2).numWorkers(3)
                .dropLast(true).build()) {
            assertThat(pass(loader)).containsExactly(List.of(0L, 3L), List.of(1L, 4L), List.of(2L, 5L));
        }
    }

    @Test
    void everySampleExactlyOnceAcrossWorkers() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int trial = 0; trial < 30; trial++) {
            int n = rnd.nextInt(0, 100);
            int batchSize = rnd.nextInt(1, 9);
            int workers = rnd.nextInt(1, 6);
            boolean inOrder = rnd.nextBoolean();
            boolean dropLast = rnd.nextBoolean();
            try (DataLoader<Long> loader = DataLoader.builder(new Sharded(n, -1)).batchSize(batchSize)
                    .numWorkers(workers).inOrder(inOrder).dropLast(dropLast).prefetchFactor(rnd.nextInt(1, 4))
                    .persistentWorkers(rnd.nextBoolean()).build()) {
                for (int epoch = 0; epoch < 2; epoch++) {
                    List<Long> seen = new ArrayList<>();
                    pass(loader).forEach(seen::addAll);
                    List<Long> expected = new ArrayList<>();
                    for (int w = 0; w < workers; w++) {
                        int wf = w;
                        List<Long> share = LongStream.range(0, n).filter(i -> i % workers == wf).boxed().toList();
                        expected.addAll(dropLast ? share.subList(0, share.size() / batchSize * batchSize) : share);
                    }
                    assertThat(seen).as("trial " + trial).containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        }
    }

    @Test
    void aFailingStreamIsNamedAndTheOtherWorkersGoOn() {
        Sharded ds = new Sharded(12, 4); // worker 1 reads 1, 4, 7, 10 and fails at 4
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(1).numWorkers(3).build()) {
            BatchIterator it = loader.iterator();
            List<Long> seen = new ArrayList<>();
            LoaderException failure = null;
            while (it.hasNext()) {
                try (Batch b = it.next()) {
                    seen.add(b.tensor().getLong(0));
                } catch (LoaderException e) {
                    failure = e;
                }
            }
            assertThat(failure).isNotNull();
            assertThat(failure).hasMessage("dataset 'sharded': reading sample 1 of the stream for batch 1 of epoch 0"
                    + " failed: IllegalStateException: corrupt record 4 (worker stoker-worker-1)");
            assertThat(seen).containsExactly(0L, 1L, 2L, 3L, 5L, 6L, 8L, 9L, 11L);
            assertThat(ds.closed).hasValue(3);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void anOpenFailureIsNamed() {
        StreamingDataset<Long> broken = ctx -> {
            throw new IllegalStateException("no shards for worker " + ctx.workerId());
        };
        try (DataLoader<Long> loader = DataLoader.builder(broken).batchSize(2).numWorkers(2).build()) {
            BatchIterator it = loader.iterator();
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e).hasMessageContaining("opening the stream for").hasMessageContaining("no shards for worker 0")
                    .hasMessageEndingWith("(worker stoker-worker-0)");
        }
    }

    @Test
    void anEarlyCloseClosesEveryStream() {
        Sharded ds = new Sharded(10_000, -1);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).numWorkers(3).build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            it.close();
            assertThat(ds.closed).hasValue(3);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }
}
