package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.engine.SkippedSamples;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.testing.LogCapture;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** {@link SamplePolicy#SKIP}: bad samples are left out of their batches, counted, and nothing else changes. */
class SkipBadSamplesTest {
    /** How the test dataset delivers its samples. */
    private enum Kind { GET, GET_BATCH, FILL, FILL_BATCH }

    private static final SampleLayout LAYOUT = SampleLayout.single(new SampleLayout.Field("x", DType.I64, Shape.of(2)));

    /** Sample {@code i} is {@code [i, 3i]}; the samples in {@code bad} throw. */
    private static Dataset<long[]> dataset(Kind kind, long size, Set<Long> bad) {
        return switch (kind) {
            case GET -> new PerSample(size, bad);
            case GET_BATCH -> new PerSample(size, bad) {
                @Override
                public List<long[]> getBatch(long[] indices) {
                    List<long[]> out = new ArrayList<>();
                    for (long i : indices) {
                        out.add(get(i));
                    }
                    return out;
                }
            };
            case FILL -> new Fillable(size, bad);
            case FILL_BATCH -> new Fillable(size, bad) {
                @Override
                public void fillBatch(long[] indices, BatchSlots slots) {
                    Tensor x = slots.tensor(0);
                    for (int j = 0; j < indices.length; j++) {
                        x.setLong(2L * j, indices[j]);
                        x.setLong(2L * j + 1, 3 * indices[j]);
                    }
                    for (long i : indices) {
                        check(i);
                    }
                }
            };
        };
    }

    private static class PerSample implements Dataset<long[]> {
        final long size;
        final Set<Long> bad;

        PerSample(long size, Set<Long> bad) {
            this.size = size;
            this.bad = bad;
        }

        @Override
        public long size() {
            return size;
        }

        void check(long i) {
            if (bad.contains(i)) {
                throw new IllegalStateException("bad sample " + i);
            }
        }

        @Override
        public long[] get(long i) {
            check(i);
            return new long[] {i, 3 * i};
        }

        @Override
        public String name() {
            return "flaky";
        }
    }

    private static class Fillable extends PerSample implements FillableDataset<long[]> {
        Fillable(long size, Set<Long> bad) {
            super(size, bad);
        }

        @Override
        public SampleLayout layout() {
            return LAYOUT;
        }

        @Override
        public void fill(long i, SampleSlot slot) {
            Tensor x = slot.tensor(0);
            x.setLong(0, -7); // half a sample written before it fails: must not reach a batch
            check(i);
            x.setLong(0, i);
            x.setLong(1, 3 * i);
        }
    }

    @Test
    void deliversEverySampleButTheBadOnesOnceInOrder() {
        SplittableRandom random = new SplittableRandom(20261122);
        for (int trial = 0; trial < 48; trial++) {
            Kind kind = Kind.values()[trial % 4];
            int workers = (trial / 4) % 2 == 0 ? 0 : 2;
            long size = 20 + random.nextInt(60);
            int batchSize = 1 + random.nextInt(8);
            double badShare = random.nextDouble() * 0.5;
            Set<Long> bad = new HashSet<>();
            for (long i = 0; i < size; i++) {
                if (random.nextDouble() < badShare) {
                    bad.add(i);
                }
            }
            if (trial % 5 == 4) { // whole batches of bad samples
                for (long i = 0; i < Math.min(size, 2L * batchSize); i++) {
                    bad.add(i);
                }
            }
            boolean io = kind == Kind.GET && random.nextBoolean();
            String what = "trial " + trial + ": " + kind + ", " + workers + " workers, batch " + batchSize
                    + (io ? ", ioConcurrency" : "") + ", bad " + bad;

            List<Long> expected = new ArrayList<>();
            try (DataLoader<long[]> clean = DataLoader.builder(dataset(kind, size, Set.of()))
                    .batchSize(batchSize).shuffle(true).seed(trial).build()) {
                for (Batch b : clean) {
                    try (b) {
                        for (long i : b.indices()) {
                            if (!bad.contains(i)) {
                                expected.add(i);
                            }
                        }
                    }
                }
            }

            try (BufferPool pool = BufferPool.builder().name("skip test").build()) {
                List<Long> delivered = new ArrayList<>();
                LoaderStats stats;
                LoaderBuilder<long[]> builder = DataLoader.builder(dataset(kind, size, bad))
                        .batchSize(batchSize).shuffle(true).seed(trial).numWorkers(workers).pool(pool)
                        .onBadSample(SamplePolicy.SKIP);
                if (io) {
                    builder.ioConcurrency(4);
                }
                try (DataLoader<long[]> loader = builder.build()) {
                    long lastIndex = -1;
                    for (Batch b : loader) {
                        try (b) {
                            long[] indices = b.indices();
                            assertThat(indices).as(what).isNotEmpty();
                            assertThat(b.index()).as(what).isGreaterThan(lastIndex);
                            lastIndex = b.index();
                            Tensor x = b.tensor();
                            assertThat(x.shape()).as(what).isEqualTo(Shape.of(indices.length, 2));
                            for (int r = 0; r < indices.length; r++) {
                                assertThat(x.getLong(2L * r)).as(what).isEqualTo(indices[r]);
                                assertThat(x.getLong(2L * r + 1)).as(what).isEqualTo(3 * indices[r]);
                                delivered.add(indices[r]);
                            }
                        }
                    }
                    stats = loader.stats();
                }
                assertThat(delivered).as(what).containsExactlyElementsOf(expected);
                assertThat(stats.skippedSamples()).as(what).isEqualTo(bad.size());
                assertThat(stats.samples()).as(what).isEqualTo(expected.size());
                assertThat(stats.failedBatches()).as(what).isZero();
                assertThat(stats.lastSkipped()).as(what).hasSize(Math.min(bad.size(), LoaderStats.LAST_SKIPPED_KEPT));
                for (SkippedSample s : stats.lastSkipped()) {
                    assertThat(bad).as(what).contains(s.index());
                    assertThat(s.message()).as(what).isEqualTo("IllegalStateException: bad sample " + s.index());
                    assertThat(s.epoch()).isZero();
                }
                assertThat(pool.lentBytes()).as(what).isZero();
                assertThat(pool.leaks()).as(what).isEmpty();
            }
        }
    }

    @Test
    void failIsStillTheDefault() {
        for (Kind kind : Kind.values()) {
            for (int workers : new int[] {0, 2}) {
                try (DataLoader<long[]> loader = DataLoader.builder(dataset(kind, 10, Set.of(4L)))
                        .batchSize(3).numWorkers(workers).build()) {
                    BatchIterator it = loader.iterator();
                    it.next().close();
                    LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
                    assertThat(e).as(kind + ", " + workers).isNotNull();
                    assertThat(e.indices()).containsExactly(3, 4, 5);
                    assertThat(e.getCause()).hasMessage("bad sample 4");
                    try (Batch b = it.next()) {
                        assertThat(b.indices()).containsExactly(6, 7, 8);
                    }
                    assertThat(loader.stats().skippedSamples()).isZero();
                    assertThat(loader.stats().failedBatches()).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void anErrorIsNotSkipped() {
        Dataset<long[]> broken = new PerSample(6, Set.of()) {
            @Override
            public long[] get(long i) {
                if (i == 2) {
                    throw new AssertionError("a bug, not a bad sample");
                }
                return super.get(i);
            }
        };
        try (DataLoader<long[]> loader = DataLoader.builder(broken).batchSize(3).numWorkers(2)
                .onBadSample(SamplePolicy.SKIP).build()) {
            LoaderException e = catchThrowableOfType(LoaderException.class, () -> loader.iterator().next());
            assertThat(e).hasCauseInstanceOf(AssertionError.class);
            assertThat(loader.stats().skippedSamples()).isZero();
        }
    }

    @Test
    void theStatsKeepOnlyTheLastSkipped() {
        Set<Long> bad = new HashSet<>();
        for (long i = 0; i < 100; i += 2) {
            bad.add(i);
        }
        try (DataLoader<long[]> loader = DataLoader.builder(dataset(Kind.GET, 100, bad)).batchSize(10)
                .onBadSample(SamplePolicy.SKIP).build()) {
            int batches = 0;
            for (Batch b : loader) {
                try (b) {
                    assertThat(b.indices()).hasSize(5);
                    batches++;
                }
            }
            assertThat(batches).isEqualTo(10);
            LoaderStats stats = loader.stats();
            assertThat(stats.skippedSamples()).isEqualTo(50);
            assertThat(stats.lastSkipped()).hasSize(LoaderStats.LAST_SKIPPED_KEPT);
            assertThat(stats.lastSkipped().getLast())
                    .isEqualTo(new SkippedSample(0, 9, 98, "IllegalStateException: bad sample 98"));
        }
    }

    @Test
    void aBatchOfOnlyBadSamplesIsPassedOverInItsTurn() {
        for (Kind kind : Kind.values()) {
            for (int workers : new int[] {0, 2, 3}) {
                try (DataLoader<long[]> loader = DataLoader.builder(dataset(kind, 12, Set.of(3L, 4L, 5L, 10L)))
                        .batchSize(3).numWorkers(workers).onBadSample(SamplePolicy.SKIP).build()) {
                    List<Long> positions = new ArrayList<>();
                    List<long[]> indices = new ArrayList<>();
                    for (Batch b : loader) {
                        try (b) {
                            positions.add(b.index());
                            indices.add(b.indices());
                        }
                    }
                    assertThat(positions).as(kind + ", " + workers).containsExactly(0L, 2L, 3L);
                    assertThat(indices).as(kind + ", " + workers).containsExactly(
                            new long[] {0, 1, 2}, new long[] {6, 7, 8}, new long[] {9, 11});
                    assertThat(loader.stats().batches()).isEqualTo(3);
                }
            }
        }
    }

    @Test
    void oneSkipInAHundredIsLogged() {
        List<LogRecord> records;
        try (LogCapture log = LogCapture.of(DataLoader.class)) {
            Set<Long> bad = new HashSet<>();
            for (long i = 0; i < 250; i++) {
                bad.add(i);
            }
            try (DataLoader<long[]> loader = DataLoader.builder(dataset(Kind.GET, 300, bad)).batchSize(50)
                    .onBadSample(SamplePolicy.SKIP).build()) {
                for (Batch b : loader) {
                    b.close();
                }
                assertThat(loader.stats().skippedSamples()).isEqualTo(250);
            }
            records = log.records();
        }
        assertThat(records).hasSize(3);
        assertThat(records.getFirst().getLevel()).isEqualTo(Level.WARNING);
        assertThat(records.getFirst().getMessage()).isEqualTo("dataset 'flaky': skipped sample 0 of batch 0 of epoch 0:"
                + " IllegalStateException: bad sample 0 (1 skipped so far; one in 100 is logged)");
        assertThat(records.getFirst().getThrown()).hasMessage("bad sample 0");
        assertThat(records.get(1).getMessage()).startsWith("dataset 'flaky': skipped sample 100 of batch 2");
    }

    /** Reads {@code 0, 1, ..., size - 1} split over the workers; {@code next()} throws at the bad ones, and moves on. */
    private static StreamingDataset<long[]> stream(long size, Set<Long> bad) {
        return new StreamingDataset<>() {
            @Override
            public SampleStream<long[]> open(WorkerContext ctx) {
                return new SampleStream<>() {
                    long next = ctx.globalWorkerId();

                    public boolean hasNext() {
                        return next < size;
                    }

                    public long[] next() {
                        if (next >= size) {
                            throw new NoSuchElementException();
                        }
                        long i = next;
                        next += ctx.globalWorkers();
                        if (bad.contains(i)) {
                            throw new IllegalStateException("bad record " + i);
                        }
                        return new long[] {i, 3 * i};
                    }

                    public void close() {}
                };
            }

            @Override
            public String name() {
                return "flaky stream";
            }
        };
    }

    @Test
    void aStreamSkipsTheSamplesWhoseNextThrowsAndKeepsItsBatchesFull() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 8; trial++) {
            int workers = trial % 2 == 0 ? 0 : 2;
            long size = 10 + random.nextInt(50);
            int batchSize = 1 + random.nextInt(6);
            Set<Long> bad = new HashSet<>();
            for (long i = 0; i < size; i++) {
                if (random.nextInt(4) == 0) {
                    bad.add(i);
                }
            }
            String what = "trial " + trial + ", " + workers + " workers, batch " + batchSize + ", bad " + bad;
            try (BufferPool pool = BufferPool.builder().name("stream skip").build()) {
                List<Long> delivered = new ArrayList<>();
                try (DataLoader<long[]> loader = DataLoader.builder(stream(size, bad)).batchSize(batchSize)
                        .numWorkers(workers).pool(pool).onBadSample(SamplePolicy.SKIP).build()) {
                    int shortBatches = 0;
                    for (Batch b : loader) {
                        try (b) {
                            Tensor x = b.tensor();
                            long rows = x.shape().dim(0);
                            shortBatches += rows < batchSize ? 1 : 0;
                            for (int r = 0; r < rows; r++) {
                                assertThat(x.getLong(2L * r + 1)).isEqualTo(3 * x.getLong(2L * r));
                                delivered.add(x.getLong(2L * r));
                            }
                        }
                    }
                    assertThat(shortBatches).as(what).isLessThanOrEqualTo(Math.max(workers, 1));
                    assertThat(loader.stats().skippedSamples()).as(what).isEqualTo(bad.size());
                }
                List<Long> expected = new ArrayList<>();
                for (long i = 0; i < size; i++) {
                    if (!bad.contains(i)) {
                        expected.add(i);
                    }
                }
                if (workers == 0) {
                    assertThat(delivered).as(what).containsExactlyElementsOf(expected);
                } else {
                    assertThat(delivered).as(what).containsExactlyInAnyOrderElementsOf(expected);
                }
                assertThat(pool.lentBytes()).as(what).isZero();
                assertThat(pool.leaks()).as(what).isEmpty();
            }
        }
    }

    @Test
    void aStreamStuckOnABadSampleFails() {
        StreamingDataset<long[]> stuck = ctx -> new SampleStream<>() {
            public boolean hasNext() {
                return true;
            }

            public long[] next() {
                throw new IllegalStateException("corrupt header");
            }

            public void close() {}
        };
        try (DataLoader<long[]> loader = DataLoader.builder(stuck).batchSize(4)
                .onBadSample(SamplePolicy.SKIP).build()) {
            BatchIterator it = loader.iterator();
            assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                    .hasMessageContaining("does not move past its bad samples")
                    .hasMessageContaining("corrupt header");
            assertThat(loader.stats().skippedSamples()).isEqualTo(SkippedSamples.STUCK_STREAM - 1);
            assertThat(it.hasNext()).isFalse();
        }
    }
}
