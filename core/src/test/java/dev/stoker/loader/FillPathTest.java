package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FillPathTest {

    /** Every batch of one pass, as (indices, data) pairs, described byte by byte, each batch closed after. */
    private static List<String> describePass(DataLoader<?> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                out.add(java.util.Arrays.toString(b.indices()) + " " + describe(b.data()));
            }
        }
        return out;
    }

    /** The structure, dtypes, shapes and every byte of a batch's value. */
    static String describe(Object value) {
        return switch (value) {
            case Tensor t -> t.dtype() + t.shape().toString()
                    + java.util.Arrays.toString(t.segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            case Map<?, ?> m -> {
                StringBuilder s = new StringBuilder("{");
                m.forEach((k, v) -> s.append(k).append('=').append(describe(v)).append(';'));
                yield s.append('}').toString();
            }
            case List<?> l -> "[" + String.join(";", l.stream().map(FillPathTest::describe).toList()) + "]";
            default -> String.valueOf(value);
        };
    }

    @Test
    void fillGivesTheBatchesCollateGivesByteForByte() {
        SplittableRandom rnd = new SplittableRandom(20261122);
        for (int trial = 0; trial < 80; trial++) {
            SampleLayout layout = RandomLayoutDataset.randomLayout(rnd);
            long size = rnd.nextInt(1, 40);
            int batchSize = rnd.nextInt(1, 12);
            boolean dropLast = rnd.nextBoolean();
            boolean batched = rnd.nextBoolean();
            long seed = rnd.nextLong();
            RandomLayoutDataset filled = batched ? RandomLayoutDataset.batched(size, seed, layout)
                    : new RandomLayoutDataset(size, seed, layout);
            RandomLayoutDataset collated = new RandomLayoutDataset(size, seed, layout);
            try (BufferPool pool = BufferPool.builder().name("fill test").build()) {
                List<String> viaFill;
                List<String> viaCollate;
                try (DataLoader<Object> a = DataLoader.builder(filled)
                        .batchSize(batchSize).shuffle(true).seed(trial).dropLast(dropLast).pool(pool).build();
                     DataLoader<Object> b = DataLoader.builder(collated)
                        .batchSize(batchSize).shuffle(true).seed(trial).dropLast(dropLast).pool(pool)
                        .collate(DefaultCollate.instance()).build()) {
                    viaFill = describePass(a);
                    viaCollate = describePass(b);
                    long batches = dropLast ? size / batchSize : (size + batchSize - 1) / batchSize;
                    assertThat(viaFill).as("trial %d, layout %s", trial, layout).hasSize((int) batches)
                            .isEqualTo(viaCollate);
                }
                assertThat(filled.gets.get()).as("the fill path fetches no sample objects").isZero();
                long delivered = dropLast ? size / batchSize * batchSize : size;
                if (batched) {
                    assertThat(filled.batchFills.get()).isEqualTo(dropLast ? size / batchSize
                            : (size + batchSize - 1) / batchSize);
                    assertThat(filled.fills.get()).isZero();
                } else {
                    assertThat(filled.fills.get()).isEqualTo(delivered);
                }
                assertThat(collated.fills.get()).as("a collate given turns the fill path off").isZero();
                assertThat(pool.lentBytes()).isZero();
                assertThat(pool.leaks()).isEmpty();
            }
        }
    }

    @Test
    void subsetsSplitsAndConcatenationsOfFillableDatasetsAreFilledToo() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int trial = 0; trial < 20; trial++) {
            SampleLayout layout = RandomLayoutDataset.randomLayout(rnd);
            long size = rnd.nextInt(2, 50);
            long seed = rnd.nextLong();
            boolean batched = rnd.nextBoolean();
            RandomLayoutDataset filled = batched ? RandomLayoutDataset.batched(size, seed, layout)
                    : new RandomLayoutDataset(size, seed, layout);
            RandomLayoutDataset collated = new RandomLayoutDataset(size, seed, layout);
            long[] picks = rnd.longs(rnd.nextInt(1, 30), 0, size).toArray();
            List<Dataset<Object>> fillParts = new ArrayList<>(List.of(Datasets.subset(filled, picks)));
            fillParts.addAll(Datasets.randomSplit(filled, new double[] {0.5, 0.5}, seed));
            List<Dataset<Object>> collateParts = new ArrayList<>(List.of(Datasets.subset(collated, picks)));
            collateParts.addAll(Datasets.randomSplit(collated, new double[] {0.5, 0.5}, seed));
            RandomLayoutDataset other = new RandomLayoutDataset(7, seed + 1, layout);
            fillParts.add(Datasets.concat(filled, other, filled));
            collateParts.add(Datasets.concat(collated, new RandomLayoutDataset(7, seed + 1, layout), collated));
            for (int p = 0; p < fillParts.size(); p++) {
                assertThat(fillParts.get(p)).isInstanceOf(FillableDataset.class);
                try (DataLoader<Object> a = DataLoader.builder(fillParts.get(p)).batchSize(4).shuffle(true).seed(p)
                             .build();
                     DataLoader<Object> b = DataLoader.builder(collateParts.get(p)).batchSize(4).shuffle(true).seed(p)
                             .collate(DefaultCollate.instance()).build()) {
                    assertThat(describePass(a)).as("trial %d, part %d", trial, p).isEqualTo(describePass(b));
                }
            }
            assertThat(filled.gets.get()).as("the fill path fetches no sample objects").isZero();
            assertThat(batched ? filled.batchFills.get() : filled.fills.get()).isPositive();
            SampleLayout another = RandomLayoutDataset.randomLayout(rnd);
            if (!another.equals(layout)) {
                assertThat(Datasets.concat(filled, new RandomLayoutDataset(3, 1, another)))
                        .as("parts of different layouts: collated").isNotInstanceOf(FillableDataset.class);
            }
        }
    }

    @Test
    void workersFillTheSameBatchesInTheSameOrder() {
        SplittableRandom rnd = new SplittableRandom(77);
        for (int trial = 0; trial < 12; trial++) {
            SampleLayout layout = RandomLayoutDataset.randomLayout(rnd);
            long size = rnd.nextInt(1, 60);
            int batchSize = rnd.nextInt(1, 7);
            long seed = rnd.nextLong();
            RandomLayoutDataset filled = rnd.nextBoolean() ? RandomLayoutDataset.batched(size, seed, layout)
                    : new RandomLayoutDataset(size, seed, layout);
            try (BufferPool pool = BufferPool.builder().name("workers").build()) {
                try (DataLoader<Object> workers = DataLoader.builder(filled).batchSize(batchSize).shuffle(true)
                        .seed(trial).numWorkers(3).prefetchFactor(2).pool(pool).build();
                     DataLoader<Object> serial = DataLoader.builder(new RandomLayoutDataset(size, seed, layout))
                        .batchSize(batchSize).shuffle(true).seed(trial).pool(pool)
                        .collate(DefaultCollate.instance()).build()) {
                    for (int epoch = 0; epoch < 2; epoch++) {
                        assertThat(describePass(workers)).as("trial %d epoch %d", trial, epoch)
                                .isEqualTo(describePass(serial));
                    }
                }
                assertThat(filled.gets.get()).isZero();
                assertThat(pool.lentBytes()).isZero();
                assertThat(pool.leaks()).isEmpty();
            }
        }
    }

    @Test
    void aBatchLooksAsTheDefaultCollateMakesIt() {
        SampleLayout layout = SampleLayout.of(new SampleLayout.Field("image", DType.F32, Shape.of(3, 4, 4)),
                new SampleLayout.Field("label", DType.I64, Shape.scalar()));
        try (DataLoader<Object> loader = DataLoader.builder((dev.stoker.data.Dataset<Object>)
                new RandomLayoutDataset(10, 1, layout)).batchSize(4).build()) {
            Iterator<Batch> it = loader.iterator();
            try (Batch b = it.next()) {
                assertThat(b.tensor("image").shape()).isEqualTo(Shape.of(4, 3, 4, 4));
                assertThat(b.tensor("image").dtype()).isEqualTo(DType.F32);
                assertThat(b.tensor("label").shape()).isEqualTo(Shape.of(4));
                assertThat(b.tensor("label").dtype()).isEqualTo(DType.I64);
                assertThat(List.copyOf(((Map<?, ?>) b.data()).keySet())).isEqualTo(List.of("image", "label"));
                assertThat(b.buffers()).hasSize(2);
            }
            assertThat(loader.stats().collateNanos()).isZero();
        }
    }

    @Test
    void thePoolIsEmptyAfterCloseAlsoMidEpoch() {
        SampleLayout layout = SampleLayout.tuple(new SampleLayout.Field("x", DType.U8, Shape.of(100)));
        try (BufferPool pool = BufferPool.builder().name("shared").build()) {
            try (DataLoader<Object> loader = DataLoader.builder((dev.stoker.data.Dataset<Object>)
                    new RandomLayoutDataset(50, 2, layout)).batchSize(7).pool(pool).build()) {
                Iterator<Batch> it = loader.iterator();
                it.next().close();
                try (Batch held = it.next()) {
                    assertThat(pool.lentBytes()).isPositive();
                    assertThat(held.tensor(0).shape()).isEqualTo(Shape.of(7, 100));
                }
                it.next().close(); // the pass is left unfinished
            }
            assertThat(pool.lentBytes()).isZero();
            assertThat(pool.leaks()).isEmpty();
        }
    }

    /** Sample {@code bad} fails after writing its image, having asked for its label. */
    private static class Flaky extends RandomLayoutDataset {
        private final long bad;

        Flaky(long bad) {
            super(10, 3, SampleLayout.of(new SampleLayout.Field("image", DType.F32, Shape.of(2, 2)),
                    new SampleLayout.Field("label", DType.I64, Shape.scalar())));
            this.bad = bad;
        }

        @Override
        public void fill(long index, SampleSlot slot) {
            write(index, 0, slot.tensor("image").segment());
            Tensor label = slot.tensor("label");
            if (index == bad) {
                throw new IllegalStateException("label file truncated at " + index);
            }
            write(index, 1, label.segment());
        }

        @Override
        public String name() {
            return "flaky";
        }
    }

    /** {@link Flaky} with a {@code fillBatch} of its own. */
    private static class FlakyBatched extends Flaky {
        FlakyBatched(long bad) {
            super(bad);
        }

        @Override
        public void fillBatch(long[] indices, BatchSlots slots) {
            for (int j = 0; j < indices.length; j++) {
                fill(indices[j], slots.slot(j));
            }
        }
    }

    @Test
    void theIoModeLeavesADatasetsOwnFillBatchOnTheFillPath() {
        // found in issue 20's redesign: the I/O mode wrapped such a dataset for its getBatch, so
        // its batches were collated and its own fillBatch never ran
        int[] calls = {0};
        FlakyBatched ds = new FlakyBatched(-1) {
            @Override
            public void fillBatch(long[] indices, BatchSlots slots) {
                calls[0]++;
                super.fillBatch(indices, slots);
            }
        };
        List<byte[]> plain = new ArrayList<>();
        try (DataLoader<Object> loader = DataLoader.builder(ds).batchSize(3).build()) {
            for (Batch b : loader) {
                try (b) {
                    plain.add(b.tensor("image").segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                }
            }
        }
        calls[0] = 0;
        List<byte[]> io = new ArrayList<>();
        try (DataLoader<Object> loader = DataLoader.builder(ds).batchSize(3).ioConcurrency(3).build()) {
            for (Batch b : loader) {
                try (b) {
                    io.add(b.tensor("image").segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                }
            }
            assertThat(loader.pool().lentBytes()).isZero();
        }
        assertThat(calls[0]).isEqualTo(4);
        assertThat(io).containsExactlyElementsOf(plain);
    }

    @Test
    void aFailedFillNamesTheDatasetTheIndexAndTheFieldAndGivesTheBuffersBack() {
        // per sample, the dataset's own fillBatch, and the I/O mode's fills at once (each names its own field)
        for (int mode = 0; mode < 3; mode++) {
            RandomLayoutDataset ds = mode == 1 ? new FlakyBatched(7) : new Flaky(7);
            try (DataLoader<Object> loader = DataLoader.builder(ds)
                    .batchSize(3).ioConcurrency(mode == 2 ? 3 : 0).build()) {
                BatchIterator it = loader.iterator();
                it.next().close();
                it.next().close();
                LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
                assertThat(e).hasMessage("dataset '" + ds.name() + "': filling field 'label' of sample 7 for batch 2"
                        + " of epoch 0 failed: IllegalStateException: label file truncated at 7 (batch samples"
                        + " [6, 7, 8])");
                assertThat(e.failedIndex()).hasValue(7);
                assertThat(e.getCause()).hasMessage("label file truncated at 7");
                assertThat(loader.pool().lentBytes()).isZero();
                assertThat(loader.stats().failedBatches()).isEqualTo(1);
                try (Batch last = it.next()) { // the pass goes on
                    assertThat(last.indices()).containsExactly(9);
                }
            }
        }
    }

    @Test
    void aFailedFillInAWorkerIsNamedTooAndTheBuffersGoBack() {
        Flaky ds = new Flaky(7);
        try (BufferPool pool = BufferPool.builder().name("workers").build()) {
            try (DataLoader<Object> loader = DataLoader.builder(ds).batchSize(3).numWorkers(2).pool(pool).build()) {
                BatchIterator it = loader.iterator();
                it.next().close();
                it.next().close();
                LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
                assertThat(e.getMessage()).contains("dataset 'flaky'", "field 'label' of sample 7",
                        "label file truncated at 7");
                assertThat(e.failedIndex()).hasValue(7);
            }
            assertThat(pool.lentBytes()).isZero();
            assertThat(pool.leaks()).isEmpty();
        }
    }

    @Test
    void aFillThatFailsBeforeAskingForAFieldNamesNoneOfAnEarlierSample() {
        RandomLayoutDataset ds = new RandomLayoutDataset(4, 4,
                SampleLayout.single(new SampleLayout.Field("x", DType.I32, Shape.of(3))));
        try (DataLoader<Object> loader = DataLoader.builder(ds)
                .batchSampler(new dev.stoker.sampler.BatchSampler() {
                    @Override
                    public Iterator<long[]> iterator(long epoch) {
                        return List.of(new long[] {1, 99}).iterator();
                    }

                    @Override
                    public long size() {
                        return 1;
                    }
                }).build()) {
            LoaderException e = catchThrowableOfType(LoaderException.class, () -> loader.iterator().next());
            assertThat(e.getMessage()).startsWith("dataset 'random-layout': filling sample 99 for batch 0 of epoch 0"
                    + " failed: IndexOutOfBoundsException");
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }
    /**
     * The last, short batch takes blocks of a full batch's size: with each batch closed before
     * the next, every batch of an epoch, the short one too, reuses the first batch's blocks. Before,
     * the short batch's own sizes were fresh memory beside the full blocks (W3's peak: 10 MiB).
     */
    @Test
    void theShortLastBatchReusesTheBlocksOfAFullOne() {
        SampleLayout layout = SampleLayout.of(
                new SampleLayout.Field("image", DType.F32, Shape.of(3, 32, 32)),
                new SampleLayout.Field("label", DType.I64, Shape.of()));
        for (boolean fill : new boolean[] {true, false}) {
            RandomLayoutDataset data = new RandomLayoutDataset(10, 7, layout); // batches of 4, 4 and 2
            LoaderBuilder<Object> builder = DataLoader.builder(data).batchSize(4);
            if (!fill) {
                builder.collate(DefaultCollate.instance());
            }
            try (DataLoader<Object> loader = builder.build()) {
                List<String> pass = describePass(loader);
                assertThat(pass).hasSize(3);
                assertThat(pass.get(2).substring(0, 32)).as("the short batch has its own 2 rows")
                        .isEqualTo("[8, 9] {image=f32[2, 3, 32, 32][");
                assertThat(loader.pool().stats().allocations()).as(fill ? "fill" : "collate").isEqualTo(2);
                assertThat(loader.pool().stats().reuses()).as(fill ? "fill" : "collate").isEqualTo(4);
            }
        }
    }
}
