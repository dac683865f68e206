package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySources;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageTimes;
import dev.stoker.metrics.Stages;
import dev.stoker.metrics.Trace;
import dev.stoker.testing.LogCapture;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a loader's profile and trace hold after real passes. */
class ProfileTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Samples that time a read and a decode of their own, as a dataset with real work would. */
    private static final class TimedDataset implements Dataset<long[]> {
        @Override
        public long size() {
            return 40;
        }

        @Override
        public long[] get(long index) {
            long t = Stages.start();
            LockSupport.parkNanos(20_000);
            t = Stages.end(Stage.READ, t);
            long[] sample = {index, index * 2};
            Stages.end(Stage.DECODE, t);
            return sample;
        }
    }

    private static void drain(DataLoader<?> loader) {
        for (Batch b : loader) {
            b.close();
        }
    }

    @ParameterizedTest(name = "numWorkers {0}, ioConcurrency {1}")
    @CsvSource({"0, 0", "2, 0", "2, 4", "0, 4"})
    void everyStageIsCountedOncePerBatchOrSample(int workers, int io) {
        try (DataLoader<long[]> loader = DataLoader.builder(new TimedDataset()).batchSize(8).numWorkers(workers)
                .ioConcurrency(io).build()) {
            drain(loader);
            drain(loader);
            StageTimes t = loader.profile().times();
            assertThat(t.get(Stage.FETCH).count()).isEqualTo(10);   // 5 batches, 2 epochs
            assertThat(t.get(Stage.COLLATE).count()).isEqualTo(10);
            assertThat(t.get(Stage.READ).count()).isEqualTo(80);    // every sample, on every thread it ran
            assertThat(t.get(Stage.DECODE).count()).isEqualTo(80);
            assertThat(t.get(Stage.FIRST_BATCH).count()).isEqualTo(2);
            assertThat(t.get(Stage.STEP).count()).isEqualTo(10);    // after each batch, the end's ask included
            assertThat(t.get(Stage.WAIT).count()).isEqualTo(8);     // 4 more batches per pass; the end is no wait
            assertThat(t.get(Stage.READ).nanos()).isGreaterThanOrEqualTo(80 * 20_000L);
            // a batch's reads run on up to io threads at once, and each lane's first batch on every worker
            assertThat(t.nanos(Stage.FETCH))
                    .isGreaterThanOrEqualTo(t.nanos(Stage.READ) / Math.max(1, Math.max(io, workers)));
            assertThat(loader.profile().activeNanos()).isPositive();
        }
    }

    /** A stream of 12 samples whose end comes late: its last hasNext() takes a while, as a source closing does. */
    private static StreamingDataset<Long> slowToEnd() {
        return (WorkerContext ctx) -> SampleStream.of(new Iterator<>() {
            long next = ctx.workerId();

            @Override
            public boolean hasNext() {
                if (next >= 12) {
                    LockSupport.parkNanos(Duration.ofMillis(30).toNanos());
                    return false;
                }
                return true;
            }

            @Override
            public Long next() {
                long v = next;
                next += ctx.numWorkers();
                return v;
            }
        });
    }

    @ParameterizedTest(name = "numWorkers {0}")
    @CsvSource({"0", "2"})
    void theAskThatFindsThePassOverIsNoWait(int workers) {
        try (DataLoader<Long> loader = DataLoader.builder(slowToEnd()).batchSize(3).numWorkers(workers).build()) {
            List<Long> waitedFor = new CopyOnWriteArrayList<>();
            loader.stageClock().listen((stage, start, nanos, epoch, batch) -> {
                if (stage == Stage.WAIT) {
                    waitedFor.add(batch);
                }
            });
            drain(loader);
            drain(loader);
            StageTimes t = loader.profile().times();
            assertThat(t.get(Stage.FIRST_BATCH).count()).isEqualTo(2);
            assertThat(t.get(Stage.WAIT).count()).isEqualTo(6); // batches 1, 2, 3 of each pass: not the end's ask
            assertThat(waitedFor).containsExactlyInAnyOrder(1L, 2L, 3L, 1L, 2L, 3L);
        }
    }

    @Test
    void aStreamsReadingCountsAsFetch() {
        StreamingDataset<Long> stream = (WorkerContext ctx) -> SampleStream.of(new Iterator<>() {
            long next = ctx.workerId();

            @Override
            public boolean hasNext() {
                return next < 30;
            }

            @Override
            public Long next() {
                long t = Stages.start();
                long v = next;
                next += ctx.numWorkers();
                Stages.end(Stage.DECODE, t);
                return v;
            }
        });
        try (DataLoader<Long> loader = DataLoader.builder(stream).batchSize(5).numWorkers(2).build()) {
            drain(loader);
            StageTimes t = loader.profile().times();
            assertThat(t.get(Stage.FETCH).count()).isEqualTo(6);
            assertThat(t.get(Stage.DECODE).count()).isEqualTo(30);
        }
    }

    @Test
    void aWorkerWaitingForPoolMemoryIsSeen() {
        // the pool holds one batch; the consumer keeps each batch for 20 ms, so the worker waits
        try (BufferPool pool = BufferPool.builder().budgetBytes(8 * 2 * 8).source(MemorySources.ordinary()).build();
             DataLoader<long[]> loader = DataLoader.builder(new TimedDataset()).batchSize(8).numWorkers(1)
                     .pool(pool).build()) {
            for (Batch b : loader) {
                try (b) {
                    LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                }
            }
            assertThat(loader.profile().times().get(Stage.MEMORY).count()).isPositive();
        }
    }

    @Test
    void aTraceShowsEveryThreadsSpansAndOpensAsJson() throws Exception {
        try (DataLoader<long[]> loader = DataLoader.builder(new TimedDataset()).batchSize(8).numWorkers(2).build()) {
            Trace trace = loader.startTrace(10_000);
            drain(loader);
            assertThat(loader.stopTrace()).isSameAs(trace);
            drain(loader); // not traced

            JsonNode root = JSON.readTree(trace.toChromeJson());
            Set<String> names = new HashSet<>();
            Set<Long> fetchThreads = new HashSet<>();
            long spans = 0;
            for (JsonNode e : root.path("traceEvents")) {
                if (e.path("ph").asText().equals("X")) {
                    spans++;
                    names.add(e.path("name").asText());
                    if (e.path("name").asText().equals("fetch")) {
                        fetchThreads.add(e.path("tid").asLong());
                    }
                }
            }
            // 5 fetch + 5 collate + 40 read + 40 decode + first batch + 4 waits (the end's ask is none) + 5 steps
            assertThat(spans).isEqualTo(5 + 5 + 40 + 40 + 1 + 4 + 5);
            assertThat(names).containsExactlyInAnyOrder("fetch", "collate", "read", "decode", "first batch", "wait",
                    "step");
            assertThat(fetchThreads).hasSize(2).doesNotContain(Thread.currentThread().threadId());
        }
    }

    @Test
    void profileEveryHandsOverWindowsThatAddUpToTheWhole() {
        List<LoaderProfile> windows = new CopyOnWriteArrayList<>();
        try (DataLoader<long[]> loader = DataLoader.builder(new TimedDataset()).batchSize(2).numWorkers(2)
                .profileEvery(Duration.ofMillis(15), windows::add).build()) {
            for (Batch b : loader) { // one pass of 20 batches, 5 ms a step: windows of 3 or 4 batches
                try (b) {
                    LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
                }
            }
            assertThat(windows).hasSizeGreaterThanOrEqualTo(2);
            long steps = 0;
            for (LoaderProfile w : windows) {
                assertThat(w.activeNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(15).toNanos());
                assertThat(w.times().get(Stage.STEP).count()).isPositive();
                steps += w.times().get(Stage.STEP).count();
            }
            // the windows cover the pass from its first batch up to the last window's end, without overlap
            assertThat(steps).isLessThanOrEqualTo(loader.profile().times().get(Stage.STEP).count());
            assertThat(steps).isGreaterThanOrEqualTo(20 - 1 - 4 - 4); // less the first and the unfinished window
        }
    }

    @Test
    void profileEveryWithoutASinkLogsTheVerdict() {
        Dataset<Long> slow = Datasets.map(new TimedDataset(), sample -> {
            LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
            return sample[0];
        });
        List<LogRecord> records;
        try (LogCapture log = LogCapture.of(DataLoader.class);
             DataLoader<Long> loader = DataLoader.builder(slow).batchSize(1).profileEvery(Duration.ofMillis(8))
                     .build()) {
            drain(loader); // no workers: 40 batches that each take over 1 ms, and a step of nothing
            records = log.records();
        }
        assertThat(records).as(records.stream().map(LogRecord::getMessage).toList().toString()).isNotEmpty();
        assertThat(records).allSatisfy(r -> assertThat(r.getMessage()).matches("loader, the last \\d+ s \\(\\d+ batches\\): .*"));
        assertThat(records).anySatisfy(r -> {
            assertThat(r.getLevel()).isEqualTo(Level.WARNING);
            assertThat(r.getMessage()).contains("data-bound: ").contains("numWorkers 0");
        });
    }

    @Test
    void profileEveryNeedsAPositivePeriod() {
        assertThatThrownBy(() -> DataLoader.builder(new TimedDataset()).profileEvery(Duration.ZERO))
                .hasMessage("profileEvery needs a positive period, not PT0S");
    }

    @Test
    void aLoaderThatKeepsUpWithASlowStepIsComputeBound() {
        // 10 batches, all in flight at once (2 workers x 5): the first step lasts until every batch is made,
        // however long a loaded machine takes (the warm-up, which the verdict is not about), so each later
        // ask finds its batch ready; a wait share of 5% would need the hand-overs of ready batches to take
        // over 5 ms against the 9 steps of at least 10 ms each
        try (DataLoader<long[]> loader = DataLoader.builder(new TimedDataset()).batchSize(4).numWorkers(2)
                .prefetchFactor(5).build()) {
            boolean first = true;
            for (Batch b : loader) {
                try (b) {
                    if (first) {
                        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos(); // a hang guard
                        while (loader.profile().times().get(Stage.COLLATE).count() < 10
                                && System.nanoTime() < deadline) {
                            LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
                        }
                        assertThat(loader.profile().times().get(Stage.COLLATE).count()).as("batches made ahead")
                                .isEqualTo(10);
                        first = false;
                    }
                    LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
                }
            }
            Verdict v = loader.profile().verdict();
            assertThat(v.kind()).as(v.toString()).isEqualTo(Verdict.Kind.COMPUTE_BOUND);
        }
    }

    @Test
    void aLoopWithoutWorkersOverASlowDatasetIsDataBound() {
        // samples of at least 1 ms on the loop's own thread, a step of nothing: the 9 judged batches wait
        // 36 ms or more, so a loaded machine would have to stall the empty steps for over 0.6 s to turn it
        Dataset<long[]> slow = Datasets.map(new TimedDataset(), sample -> {
            LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
            return sample;
        });
        try (DataLoader<long[]> loader = DataLoader.builder(slow).batchSize(4).build()) {
            drain(loader);
            Verdict v = loader.profile().verdict();
            assertThat(v.kind()).isEqualTo(Verdict.Kind.DATA_BOUND);
            assertThat(v.reason()).contains("numWorkers 0");
        }
    }
}
