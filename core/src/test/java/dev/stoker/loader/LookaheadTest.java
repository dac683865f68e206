package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A map-style dataset hears of a batch's indices (willNeed) batches before they are fetched. */
class LookaheadTest {

    /** Records, for every index, when it was hinted and when it was fetched, on one clock. */
    static final class Recording implements Dataset<Long> {
        final long size;
        final AtomicLong clock = new AtomicLong();
        final Map<Long, Long> hinted = new ConcurrentHashMap<>();
        final Map<Long, Long> fetched = new ConcurrentHashMap<>();
        final List<long[]> hints = java.util.Collections.synchronizedList(new ArrayList<>());

        Recording(long size) {
            this.size = size;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public Long get(long index) {
            fetched.putIfAbsent(index, clock.incrementAndGet());
            return index;
        }

        @Override
        public void willNeed(long[] indices) {
            hints.add(indices.clone());
            for (long i : indices) {
                hinted.putIfAbsent(i, clock.incrementAndGet());
            }
        }
    }

    private static List<String> run(Dataset<Long> ds, int workers, int lookahead) {
        List<String> out = new ArrayList<>();
        LoaderBuilder<Long> b = DataLoader.builder(ds).batchSize(4).shuffle(true).seed(3).numWorkers(workers);
        if (lookahead >= 0) {
            b.lookahead(lookahead);
        }
        try (DataLoader<Long> loader = b.build()) {
            for (Batch batch : loader) {
                try (batch) {
                    out.add(Arrays.toString(batch.tensor().toLongArray()));
                }
            }
        }
        return out;
    }

    @Test
    void everySampleIsHintedBeforeItIsFetchedAndTheBatchesStayTheSame() {
        for (int workers : new int[] {0, 1, 3}) {
            Recording ds = new Recording(100);
            List<String> hintedRun = run(ds, workers, 5);
            assertThat(hintedRun).isEqualTo(run(new CountingDataset(100), workers, 0));
            assertThat(ds.fetched).hasSize(100);
            for (long i = 0; i < 100; i++) {
                assertThat(ds.hinted.get(i)).as("workers %d, index %d", workers, i).isNotNull()
                        .isLessThan(ds.fetched.get(i));
            }
        }
    }

    @Test
    void withoutWorkersTheHintRunsExactlyTheLookaheadAhead() {
        Recording ds = new Recording(40); // 10 batches of 4
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).lookahead(3).build()) {
            var it = loader.iterator();
            try (Batch first = it.next()) {
                assertThat(first.indices()).containsExactly(0, 1, 2, 3);
            }
            // batch 0 made: batches 0..3 read and hinted, no further
            assertThat(ds.hints).hasSize(4);
            assertThat(ds.hints.getLast()).containsExactly(12, 13, 14, 15);
            while (it.hasNext()) {
                it.next().close();
            }
        }
        assertThat(ds.hints).hasSize(10);
    }

    @Test
    void theDefaultLooksAheadSixteenBatchesOrTheBatchesInFlightAndZeroTurnsItOff() {
        Recording on = new Recording(400);
        try (DataLoader<Long> loader = DataLoader.builder(on).batchSize(4).prefetchFactor(3).build()) {
            var it = loader.iterator();
            it.next().close();
            assertThat(on.hints).hasSize(1 + LoaderBuilder.DEFAULT_LOOKAHEAD); // the batch made, and 16 ahead
            it.close();
        }
        Recording many = new Recording(4000);
        try (DataLoader<Long> loader = DataLoader.builder(many).batchSize(4).prefetchFactor(5).numWorkers(4).build()) {
            var it = loader.iterator();
            it.next().close();
            assertThat(many.hints.size()).isGreaterThanOrEqualTo(1 + 20); // 5 x 4 batches in flight
            it.close();
        }
        Recording off = new Recording(40);
        run(off, 2, 0);
        assertThat(off.hints).isEmpty();
        assertThat(off.fetched).hasSize(40);
        assertThatThrownBy(() -> DataLoader.builder(off).lookahead(-1)).hasMessageContaining("lookahead");
    }

    @Test
    void aHintThatThrowsChangesNothing() {
        Dataset<Long> failing = new CountingDataset(30) {
            @Override
            public void willNeed(long[] indices) {
                throw new IllegalStateException("prefetch service down");
            }
        };
        assertThat(run(failing, 2, 4)).isEqualTo(run(new CountingDataset(30), 2, 0));
    }

    @Test
    void concatenationsAndSubsetsPassEachPartItsOwnIndices() {
        Recording a = new Recording(10);
        Recording b = new Recording(20);
        Dataset<Long> both = Datasets.concat(a, b);
        both.willNeed(new long[] {3, 12, 29, 4});
        assertThat(a.hints).containsExactly(new long[] {3, 4});
        assertThat(b.hints).containsExactly(new long[] {2, 19});
        Dataset<Long> some = Datasets.subset(both, new long[] {25, 1});
        some.willNeed(new long[] {1, 0});
        assertThat(a.hints.getLast()).containsExactly(1);
        assertThat(b.hints.getLast()).containsExactly(15);
        Datasets.map(a, x -> x * 2).willNeed(new long[] {7});
        assertThat(a.hints.getLast()).containsExactly(7);
    }

    @Test
    void aResumedPassHintsFromWhereItStands() {
        Recording first = new Recording(40);
        LoaderState state;
        try (DataLoader<Long> loader = DataLoader.builder(first).batchSize(4).lookahead(2).build()) {
            state = ResumeRuns.stopAfter(loader, 1, 5, b -> "", new ArrayList<>());
        }
        Recording second = new Recording(40);
        try (DataLoader<Long> loader = DataLoader.builder(second).batchSize(4).lookahead(2).build()) {
            ResumeRuns.resume(loader, state, 1, b -> "", new ArrayList<>(), () -> { });
        }
        assertThat(second.hints.getFirst()).containsExactly(20, 21, 22, 23);
        assertThat(second.hinted.keySet()).allMatch(i -> i >= 20).hasSize(20);
    }
}
