package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Streaming resume equals no resume: the batches delivered before a stop, followed by those a new
 * loader delivers after restoring the state (same streams: same workers, or 0 and 1 worker, which
 * both read one stream), are those of an uninterrupted run; random draws included. The resumed
 * streams move past what was delivered with {@code skip}, reading none of it.
 */
class StreamResumeTest {
    private static final int EPOCHS = 2;

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /**
     * Samples 0 .. size-1 dealt out to the workers of the job ({@code i % globalWorkers}), shuffled
     * per epoch; sample {@code i} comes out as {@code i * 2^20 + a draw}, so that the batch's
     * generator shows. Samples in {@code bad} throw. Its streams skip by counting, reading nothing.
     */
    private static final class Numbers implements StreamingDataset<Long> {
        final AtomicLong reads = new AtomicLong();
        final AtomicLong skipped = new AtomicLong();
        private final long size;
        private final Set<Long> bad;

        Numbers(long size, Set<Long> bad) {
            this.size = size;
            this.bad = bad;
        }

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            List<Long> mine = new ArrayList<>();
            for (long i = ctx.globalWorkerId(); i < size; i += ctx.globalWorkers()) {
                mine.add(i);
            }
            java.util.Collections.shuffle(mine, new Random(ctx.seed() * 31 + ctx.epoch()));
            return new SampleStream<>() {
                int next;

                public boolean hasNext() {
                    return next < mine.size();
                }

                public Long next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    reads.incrementAndGet();
                    long i = mine.get(next++);
                    if (bad.contains(i)) {
                        throw new IllegalStateException("bad sample " + i);
                    }
                    return (i << 20) + (WorkerContext.currentRandom().nextLong() & 0xFFFFF);
                }

                @Override
                public long skip(long n) {
                    long done = Math.min(n, mine.size() - next);
                    next += (int) done;
                    skipped.addAndGet(done);
                    return done;
                }

                public void close() {}
            };
        }
    }

    private record Setup(long size, int batchSize, boolean dropLast, long seed, Set<Long> bad, int workers) {
        LoaderBuilder<Long> builder(Numbers ds, int workers, boolean inOrder) {
            return DataLoader.builder(ds).batchSize(batchSize).dropLast(dropLast).seed(seed).numWorkers(workers)
                    .inOrder(inOrder).prefetchFactor(2).onBadSample(SamplePolicy.SKIP);
        }
    }

    private static String describe(Batch b) {
        return b.epoch() + "/" + b.index() + "=" + Arrays.toString(b.tensor().toLongArray());
    }

    private static String contents(String described) {
        return described.substring(0, described.indexOf('/')) + described.substring(described.indexOf('='));
    }

    private static List<String> uninterrupted(Setup s) {
        try (DataLoader<Long> loader = s.builder(new Numbers(s.size(), s.bad()), s.workers(), true).build()) {
            return ResumeRuns.uninterrupted(loader, EPOCHS, StreamResumeTest::describe);
        }
    }

    @Test
    void batchesBeforeTheStopAndAfterTheRestoreAreAnUninterruptedRun() {
        Random random = new Random(1122);
        for (int trial = 0; trial < 400; trial++) {
            long size = random.nextInt(80);
            Set<Long> bad = random.nextInt(4) == 0 ? Set.of((long) random.nextInt(40), 40L + random.nextInt(40))
                    : Set.of();
            int workers = random.nextInt(5);
            Setup s = new Setup(size, 1 + random.nextInt(8), random.nextBoolean(), random.nextLong(), bad, workers);
            List<String> expected = uninterrupted(s);
            int stopAfter = random.nextInt(expected.size() + 1);
            int workersAfter = workers <= 1 ? random.nextInt(2) : workers; // 0 and 1 worker read the same one stream
            boolean inOrderBefore = random.nextInt(4) != 0;
            boolean inOrderAfter = random.nextInt(4) != 0;
            String what = "trial " + trial + ": " + s + ", stop after " + stopAfter + ", workers after "
                    + workersAfter + ", in order " + inOrderBefore + " -> " + inOrderAfter;

            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<Long> loader = s.builder(new Numbers(size, bad), workers, inOrderBefore).build()) {
                state = ResumeRuns.stopAfter(loader, EPOCHS, stopAfter, StreamResumeTest::describe, seen);
            }

            Numbers after = new Numbers(size, bad);
            long deliveredBefore = 0; // samples of the epoch delivered before the stop
            long skippedBefore = 0; // of those, in streams not over yet: the resumed loader moves past them
            for (int w = 0; w < state.streams().streams(); w++) {
                deliveredBefore += state.streams().samples()[w];
                skippedBefore += state.streams().ended()[w] ? 0 : state.streams().samples()[w];
            }
            long skipped = skippedBefore;
            long read = size - deliveredBefore;
            try (DataLoader<Long> loader = s.builder(after, workersAfter, inOrderAfter).build()) {
                ResumeRuns.resume(loader, state, EPOCHS, StreamResumeTest::describe, seen, () -> {
                    assertThat(after.skipped.get()).as(what + ": skipped what was delivered").isEqualTo(skipped);
                    assertThat(after.reads.get()).as(what + ": read only what was not").isEqualTo(read);
                });
            }

            if (inOrderBefore && inOrderAfter) {
                assertThat(seen).as(what).containsExactlyElementsOf(expected);
            } else { // as ready: the same batches, numbered in the order they came
                assertThat(seen.stream().map(StreamResumeTest::contents).toList()).as(what)
                        .containsExactlyInAnyOrderElementsOf(expected.stream().map(StreamResumeTest::contents).toList());
            }
        }
    }

    @Test
    void theStateFollowsEachStream() {
        Numbers ds = new Numbers(20, Set.of());
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(3).numWorkers(2).seed(4).build()) {
            assertThat(loader.state()).isEqualTo(LoaderState.ofStreams(0, 4,
                    new StreamState(0, 1, 3, 0, 0, new long[2], new long[2], new boolean[2])));
            BatchIterator it = loader.iterator();
            for (int i = 0; i < 3; i++) {
                it.next().close(); // worker 0, worker 1, worker 0
            }
            StreamState s = loader.state().streams();
            assertThat(s.samples()).containsExactly(6, 3);
            assertThat(s.batches()).containsExactly(2, 1);
            assertThat(s.turn()).isEqualTo(1);
            assertThat(loader.state().nextBatch()).isEqualTo(3);
            while (it.hasNext()) {
                it.next().close();
            }
            assertThat(loader.state()).as("a finished epoch stands at the start of the next")
                    .isEqualTo(LoaderState.ofStreams(1, 4, new StreamState(0, 1, 3, 0, 0, new long[2], new long[2],
                            new boolean[2])));
        }
    }

    @Test
    void aStateFromOtherStreamsIsRefused() {
        LoaderState state;
        try (DataLoader<Long> loader = DataLoader.builder(new Numbers(40, Set.of())).batchSize(4).numWorkers(2)
                .seed(1).build()) {
            loader.iterator().next().close();
            state = loader.state();
        }
        try (DataLoader<Long> otherWorkers = DataLoader.builder(new Numbers(40, Set.of())).batchSize(4).numWorkers(3)
                .seed(1).build();
             DataLoader<Long> otherBatch = DataLoader.builder(new Numbers(40, Set.of())).batchSize(5).numWorkers(2)
                     .seed(1).build();
             DataLoader<Long> otherSeed = DataLoader.builder(new Numbers(40, Set.of())).batchSize(4).numWorkers(2)
                     .seed(2).build()) {
            assertThatThrownBy(() -> otherWorkers.restore(state)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("this state is from another loader")
                    .hasMessageContaining("resumes only with the same workers"); // Numbers cannot reshard
            for (DataLoader<Long> other : List.of(otherBatch, otherSeed)) {
                assertThatThrownBy(() -> other.restore(state)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("this state is from another loader");
            }
        }
        try (DataLoader<Long> mapStyle = DataLoader.builder(new CountingDataset(40)).batchSize(4).seed(1).build()) {
            assertThatThrownBy(() -> mapStyle.restore(state)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("streaming");
            LoaderState mapState = mapStyle.state();
            try (DataLoader<Long> streaming = DataLoader.builder(new Numbers(40, Set.of())).batchSize(4).seed(1)
                    .build()) {
                assertThatThrownBy(() -> streaming.restore(mapState)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("map-style");
            }
        }
    }

    @Test
    void mergedStatesJoinTheStreamsOfEveryRankInOrder() {
        List<LoaderState> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            try (DataLoader<Long> loader = DataLoader.builder(new Numbers(40, Set.of())).batchSize(3).numWorkers(2)
                    .rank(r).worldSize(2).seed(9).build()) {
                BatchIterator it = loader.iterator();
                for (int k = 0; k <= r; k++) {
                    it.next().close();
                }
                ranks.add(loader.state());
            }
        }
        LoaderState all = LoaderState.merge(List.of(ranks.get(1), ranks.get(0))); // any order
        assertThat(all.streams().worldSize()).isEqualTo(1);
        assertThat(all.streams().samples()).containsExactly(3, 0, 3, 3); // global workers 0..3
        assertThat(all.nextBatch()).isEqualTo(3);
        assertThatThrownBy(() -> LoaderState.merge(List.of(ranks.get(0), ranks.get(0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given twice");
        assertThatThrownBy(() -> LoaderState.merge(List.of(ranks.get(0)))).hasMessageContaining("2 states");
    }

    @Test
    void aStreamThatCannotMoveOnFailsItsTurnNamingTheStep() {
        StreamingDataset<Long> stuck = ctx -> new SampleStream<>() {
            long i;

            public boolean hasNext() {
                return i < 10;
            }

            public Long next() {
                return i++;
            }

            @Override
            public long skip(long n) {
                throw new IllegalStateException("the source cannot seek");
            }

            public void close() {}
        };
        LoaderState state;
        try (DataLoader<Long> loader = DataLoader.builder(stuck).batchSize(3).build()) {
            loader.iterator().next().close();
            state = loader.state();
        }
        for (int workers : new int[] {0, 1}) {
            try (DataLoader<Long> loader = DataLoader.builder(stuck).batchSize(3).numWorkers(workers).build()) {
                loader.restore(state);
                BatchIterator it = loader.iterator();
                assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                        .hasMessageContaining("moving past the 3 samples delivered before the resume")
                        .hasRootCauseMessage("the source cannot seek");
                assertThat(it.hasNext()).as("the stream failed: nothing more from it").isFalse();
            }
        }
    }

    @Test
    void aStreamWithoutItsOwnSkipIsMovedOnByReading() {
        StreamingDataset<Long> plain = ctx -> SampleStream.of(java.util.stream.LongStream.range(0, 10).boxed()
                .iterator());
        LoaderState state;
        try (DataLoader<Long> loader = DataLoader.builder(plain).batchSize(3).build()) {
            loader.iterator().next().close();
            state = loader.state();
        }
        try (DataLoader<Long> loader = DataLoader.builder(plain).batchSize(3).build()) {
            loader.restore(state);
            List<Long> rest = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    for (long v : b.tensor().toLongArray()) rest.add(v);
                }
            }
            assertThat(rest).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);
        }
    }
}
