package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.memory.BufferPool;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.SequentialSampler;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class DataLoaderTest {

    /** The sample indices of every batch of one pass, each batch closed after reading. */
    static List<long[]> pass(DataLoader<?> loader) {
        List<long[]> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                out.add(b.indices());
            }
        }
        return out;
    }

    static List<Long> flat(List<long[]> batches) {
        List<Long> out = new ArrayList<>();
        batches.forEach(b -> LongStream.of(b).forEach(out::add));
        return out;
    }

    @Test
    void everyIndexOncePerEpochWithShuffle() {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int trial = 0; trial < 60; trial++) {
            int n = rnd.nextInt(0, 150);
            int batchSize = rnd.nextInt(1, 20);
            boolean dropLast = rnd.nextBoolean();
            try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(n))
                    .batchSize(batchSize).shuffle(true).seed(rnd.nextLong()).dropLast(dropLast).build()) {
                long expectedBatches = dropLast ? n / batchSize : (n + batchSize - 1) / batchSize;
                assertThat(loader.batchesPerEpoch()).isEqualTo(expectedBatches);
                for (int epoch = 0; epoch < 3; epoch++) {
                    List<Long> seen = new ArrayList<>();
                    long batches = 0;
                    for (Batch b : loader) {
                        try (b) {
                            assertThat(b.epoch()).isEqualTo(epoch);
                            assertThat(b.index()).isEqualTo(batches++);
                            long[] indices = b.indices();
                            if (dropLast || b.index() < expectedBatches - 1) {
                                assertThat(indices).hasSize(batchSize);
                            }
                            // the collated value holds the samples of those indices (sample i is i)
                            assertThat(b.tensor().toLongArray()).containsExactly(indices);
                            LongStream.of(indices).forEach(seen::add);
                        }
                    }
                    assertThat(batches).isEqualTo(expectedBatches);
                    assertThat(seen).doesNotHaveDuplicates();
                    if (dropLast) {
                        assertThat(seen).hasSize((int) (n / batchSize * batchSize));
                        assertThat(seen).allMatch(i -> i >= 0 && i < n);
                    } else {
                        assertThat(seen).containsExactlyInAnyOrderElementsOf(LongStream.range(0, n).boxed().toList());
                    }
                }
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
    }

    @Test
    void orderIsAPureFunctionOfSeedAndEpoch() {
        try (DataLoader<Long> a = shuffled(42); DataLoader<Long> b = shuffled(42); DataLoader<Long> c = shuffled(43)) {
            List<Long> a0 = flat(pass(a));
            List<Long> a1 = flat(pass(a));
            assertThat(flat(pass(b))).isEqualTo(a0);
            assertThat(flat(pass(b))).isEqualTo(a1);
            assertThat(a1).isNotEqualTo(a0);
            assertThat(flat(pass(c))).isNotEqualTo(a0);
            assertThat(a0).isNotEqualTo(LongStream.range(0, 100).boxed().toList());
        }
    }

    @Test
    void setEpochReplaysAnEpoch() {
        try (DataLoader<Long> a = shuffled(7); DataLoader<Long> b = shuffled(7)) {
            assertThat(a.epoch()).isZero();
            pass(a);
            assertThat(a.epoch()).isZero();
            pass(a);
            assertThat(a.epoch()).isEqualTo(1);
            List<Long> a2 = flat(pass(a));
            assertThat(a.epoch()).isEqualTo(2);

            b.setEpoch(2);
            assertThat(b.epoch()).isEqualTo(2);
            assertThat(flat(pass(b))).isEqualTo(a2);
            BatchIterator next = b.iterator();
            assertThat(next.epoch()).isEqualTo(3);
            next.close();

            a.setEpoch(2);
            assertThat(flat(pass(a))).isEqualTo(a2); // the same epoch again
        }
    }

    private static DataLoader<Long> shuffled(long seed) {
        return DataLoader.builder(new CountingDataset(100)).batchSize(8).shuffle(true).seed(seed).build();
    }

    @Test
    void withoutShuffleTheOrderIsSequential() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(10)).batchSize(3).build()) {
            List<long[]> batches = pass(loader);
            assertThat(batches).hasSize(4);
            assertThat(batches.get(0)).containsExactly(0, 1, 2);
            assertThat(batches.get(3)).containsExactly(9);
        }
    }

    @Test
    void dropLastDropsTheShortBatch() {
        try (DataLoader<Long> keep = DataLoader.builder(new CountingDataset(10)).batchSize(3).build();
             DataLoader<Long> drop = DataLoader.builder(new CountingDataset(10)).batchSize(3).dropLast(true).build()) {
            assertThat(keep.batchesPerEpoch()).isEqualTo(4);
            assertThat(drop.batchesPerEpoch()).isEqualTo(3);
            assertThat(pass(keep)).extracting(b -> b.length).containsExactly(3, 3, 3, 1);
            assertThat(pass(drop)).extracting(b -> b.length).containsExactly(3, 3, 3);
        }
    }

    @Test
    void aSamplerOrABatchSamplerDecidesTheIndices() {
        try (DataLoader<Long> bySampler = DataLoader.builder(new CountingDataset(10))
                .sampler(new SequentialSampler(5)).batchSize(2).build();
             DataLoader<Long> byBatches = DataLoader.builder(new CountingDataset(10))
                     .batchSampler(BatchSampler.of(new SequentialSampler(6), 4, false)).build()) {
            assertThat(flat(pass(bySampler))).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(pass(byBatches)).extracting(b -> b.length).containsExactly(4, 2);
            assertThat(byBatches.batchesPerEpoch()).isEqualTo(2);
        }
    }

    @Test
    void batchesOfRecordsHaveTheRightShapesDtypesAndValues() {
        SyntheticDataset ds = SyntheticDataset.builder().size(10).shape(Shape.of(3, 4, 5)).seed(5).build();
        try (DataLoader<SyntheticSample> loader = DataLoader.builder(ds).batchSize(4).shuffle(true).seed(1).build()) {
            List<Integer> sizes = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    long[] indices = b.indices();
                    Tensor images = b.tensor("image");
                    Tensor labels = b.tensor("label");
                    assertThat(images.dtype()).isEqualTo(DType.F32);
                    assertThat(images.shape()).isEqualTo(Shape.of(indices.length, 3, 4, 5));
                    assertThat(labels.dtype()).isEqualTo(DType.I64);
                    assertThat(labels.shape()).isEqualTo(Shape.of(indices.length));
                    for (int i = 0; i < indices.length; i++) {
                        SyntheticSample s = ds.get(indices[i]);
                        assertThat(images.select(i).toFloatArray()).containsExactly(s.image().toFloatArray());
                        assertThat(labels.getLong(i)).isEqualTo(s.label());
                    }
                    assertThat(images.segment().isNative()).isTrue(); // in pooled memory
                    assertThat(b.buffers()).isNotEmpty();
                    sizes.add(indices.length);
                }
            }
            assertThat(sizes).containsExactly(4, 4, 2);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void aBatchedDatasetIsFetchedOncePerBatch() {
        CountingDataset batched = CountingDataset.batched("batched", 10, 0);
        try (DataLoader<Long> loader = DataLoader.builder(batched).batchSize(3).shuffle(true).build()) {
            List<long[]> batches = pass(loader);
            assertThat(batched.batches.get()).isEqualTo(4);
            assertThat(batched.gets.get()).isZero();
            for (int k = 0; k < 4; k++) {
                assertThat(batched.batchArguments.get(k)).containsExactly(batches.get(k));
            }
        }
        CountingDataset plain = new CountingDataset(10);
        try (DataLoader<Long> loader = DataLoader.builder(plain).batchSize(3).build()) {
            pass(loader);
            assertThat(plain.gets.get()).isEqualTo(10);
        }
    }

    @Test
    void statsCountBatchesAndSamples() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(10)).batchSize(4).build()) {
            pass(loader);
            pass(loader);
            LoaderStats stats = loader.stats();
            assertThat(stats.batches()).isEqualTo(6);
            assertThat(stats.samples()).isEqualTo(20);
            assertThat(stats.failedBatches()).isZero();
        }
    }

    @Test
    void workersGiveTheSameBatches() {
        try (DataLoader<Long> serial = DataLoader.builder(new CountingDataset(50)).batchSize(8).shuffle(true).seed(3)
                .build();
             DataLoader<Long> workers = DataLoader.builder(new CountingDataset(50)).batchSize(8).shuffle(true).seed(3)
                     .numWorkers(4).prefetchFactor(2).persistentWorkers(true).build()) {
            assertThat(workers.numWorkers()).isEqualTo(4);
            for (int epoch = 0; epoch < 2; epoch++) {
                assertThat(flat(pass(workers))).isEqualTo(flat(pass(serial)));
            }
        }
    }

    @Test
    void anEmptyDatasetHasNoBatches() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(0)).batchSize(4).shuffle(true).build()) {
            assertThat(loader.batchesPerEpoch()).isZero();
            assertThat(pass(loader)).isEmpty();
        }
    }

    @Test
    void theLoaderOwnsAndEmptiesItsPool() {
        DataLoader<Long> loader = DataLoader.builder(new CountingDataset(20)).batchSize(4).build();
        BufferPool pool = loader.pool();
        pass(loader);
        assertThat(pool.stats().allocations()).isPositive();
        assertThat(pool.reservedBytes()).isPositive(); // idle buffers kept for reuse
        loader.close();
        assertThat(pool.reservedBytes()).isZero();
        assertThat(pool.leaks()).isEmpty();
    }

    @Test
    void anUnclosedBatchIsReportedAsALeak() {
        DataLoader<Long> loader = DataLoader.builder(new CountingDataset(20)).batchSize(4).build();
        BufferPool pool = loader.pool();
        BatchIterator it = loader.iterator();
        Batch kept = it.next();
        loader.close();
        assertThat(pool.leaks()).singleElement().asString().contains("batch 0 of epoch 0");
        assertThat(pool.reservedBytes()).isPositive();
        kept.close();
        assertThat(pool.reservedBytes()).isZero();
        assertThat(it.hasNext()).isFalse(); // the pass was closed with the loader
    }

    @Test
    void aSharedPoolOutlivesTheLoader() {
        try (BufferPool pool = BufferPool.builder().budgetBytes(1 << 20).build()) {
            try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(20)).batchSize(4).pool(pool)
                    .build()) {
                assertThat(loader.pool()).isSameAs(pool);
                pass(loader);
            }
            assertThat(pool.lentBytes()).isZero();
            pool.acquire(64, "after").close(); // still open
        }
    }

    @Test
    void closingAPassEarlyGivesBackTheBatchLoadedAhead() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(20)).batchSize(4).build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            assertThat(it.hasNext()).isTrue(); // loads batch 1
            assertThat(loader.pool().lentBytes()).isPositive();
            it.close();
            assertThat(loader.pool().lentBytes()).isZero();
            assertThat(it.hasNext()).isFalse();
            assertThat(it.batchesDelivered()).isEqualTo(1);
        }
    }

    @Test
    void aNewPassClosesTheOneBefore() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(20)).batchSize(4).build()) {
            BatchIterator first = loader.iterator();
            first.next().close();
            first.hasNext();
            BatchIterator second = loader.iterator();
            assertThat(first.isClosed()).isTrue();
            assertThat(loader.pool().lentBytes()).isZero();
            assertThat(second.epoch()).isEqualTo(1);
            second.close();
        }
    }

    @Test
    void pinnedMemoryPoolWorks() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset(8)).batchSize(4).pinMemory(true)
                .poolBudgetBytes(1 << 20).build()) {
            assertThat(loader.pool().budgetBytes()).isEqualTo(1 << 20);
            assertThat(flat(pass(loader))).hasSize(8);
        }
    }
}
