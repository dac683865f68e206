package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.CountingDataset;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class LoaderErrorsTest {

    /** Sample {@code bad} cannot be read. */
    private static CountingDataset failingAt(long bad) {
        return new CountingDataset("flaky", 10, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == bad) {
                    throw new IllegalStateException("disk on fire at " + index);
                }
                return super.fetch(index);
            }
        };
    }

    @Test
    void aFailedGetNamesTheDatasetTheBatchAndTheIndex() {
        try (DataLoader<Long> loader = DataLoader.builder(failingAt(7)).batchSize(3).build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            it.next().close();
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e).hasMessage("dataset 'flaky': fetching sample 7 for batch 2 of epoch 0 failed: "
                    + "IllegalStateException: disk on fire at 7 (batch samples [6, 7, 8])");
            assertThat(e.datasetName()).isEqualTo("flaky");
            assertThat(e.epoch()).isZero();
            assertThat(e.batchIndex()).isEqualTo(2);
            assertThat(e.indices()).containsExactly(6, 7, 8);
            assertThat(e.failedIndex()).hasValue(7);
            assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("disk on fire at 7");
            assertThat(loader.pool().lentBytes()).isZero();
            assertThat(loader.stats().failedBatches()).isEqualTo(1);

            // the pass goes on with the next batch, as in PyTorch without workers
            try (Batch last = it.next()) {
                assertThat(last.index()).isEqualTo(3);
                assertThat(last.indices()).containsExactly(9);
            }
            assertThat(it.hasNext()).isFalse();
            assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class).hasMessageContaining("epoch 0");
        }
    }

    @Test
    void anIndexOutsideTheDatasetIsNamed() {
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset("small", 4, 0))
                .sampler(new dev.stoker.sampler.SequentialSampler(6)).batchSize(6).build()) {
            LoaderException e = catchThrowableOfType(LoaderException.class, () -> loader.iterator().next());
            assertThat(e.failedIndex()).hasValue(4);
            assertThat(e).hasMessageContaining("dataset 'small'").hasMessageContaining("sample 4")
                    .hasCauseInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void aFailedGetBatchNamesTheBatchsIndices() {
        CountingDataset ds = new CountingDataset("batchy", 10, 0) {
            @Override
            public List<Long> getBatch(long[] indices) {
                throw new UnsupportedOperationException("no batches today");
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).build()) {
            LoaderException e = catchThrowableOfType(LoaderException.class, () -> loader.iterator().next());
            assertThat(e).hasMessage("dataset 'batchy': fetching the samples of batch 0 of epoch 0 failed: "
                    + "UnsupportedOperationException: no batches today (batch samples [0, 1, 2, 3])");
            assertThat(e.failedIndex()).isEmpty();
        }
    }

    @Test
    void getBatchMustReturnOneSamplePerIndex() {
        CountingDataset ds = new CountingDataset("short", 10, 0) {
            @Override
            public List<Long> getBatch(long[] indices) {
                return List.of(1L);
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).build()) {
            assertThatThrownBy(() -> loader.iterator().next())
                    .isInstanceOf(LoaderException.class)
                    .hasMessageContaining("getBatch returned 1 samples for 4 indices");
        }
    }

    @Test
    void aFailedCollateGivesBackTheMemoryItTook() {
        Collate<Long> greedy = (samples, memory) -> {
            memory.allocate(DType.F32, Shape.of(1000));
            memory.allocate(DType.I64, Shape.of(samples.size()));
            throw new IllegalArgumentException("cannot stack these");
        };
        try (DataLoader<Long> loader = DataLoader.builder(new CountingDataset("nums", 10, 0)).batchSize(5)
                .shuffle(true).collate(greedy).build()) {
            BatchIterator it = loader.iterator();
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e).hasMessageStartingWith("dataset 'nums': collating batch 0 of epoch 0 failed: "
                    + "IllegalArgumentException: cannot stack these (batch samples [");
            assertThat(e.indices()).hasSize(5);
            assertThat(e.failedIndex()).isEmpty();
            assertThat(loader.pool().lentBytes()).isZero();
            assertThat(loader.pool().stats().allocations()).isEqualTo(2);
            assertThatThrownBy(it::next).isInstanceOf(LoaderException.class);
            assertThat(it.hasNext()).isFalse();
            loader.close();
            assertThat(loader.pool().reservedBytes()).isZero();
        }
    }

    @Test
    void theDefaultCollatesErrorsArePassedOn() {
        CountingDataset nulls = new CountingDataset("nulls", 4, 0) {
            @Override
            protected Long fetch(long index) {
                return index == 2 ? null : index;
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(nulls).batchSize(4)
                .collate(DefaultCollate.instance()).build()) {
            assertThatThrownBy(() -> loader.iterator().next())
                    .isInstanceOf(LoaderException.class)
                    .hasMessageContaining("collating batch 0")
                    .hasMessageContaining("sample 2 is null");
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void longBatchesAreShortenedInTheMessage() {
        try (DataLoader<Long> loader = DataLoader.builder(failingAt(3)).batchSize(10).build()) {
            LoaderException e = catchThrowableOfType(LoaderException.class, () -> loader.iterator().next());
            assertThat(e.getMessage()).contains("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");
        }
        CountingDataset big = new CountingDataset("big", 100, 0) {
            @Override
            protected Long fetch(long index) {
                throw new IllegalStateException("no");
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(big).batchSize(40).build()) {
            LoaderException e = catchThrowableOfType(LoaderException.class, () -> loader.iterator().next());
            assertThat(e.getMessage()).contains("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ... 40 in all]");
            assertThat(e.indices()).hasSize(40);
        }
    }

    @Test
    void aClosedLoaderStartsNoPass() {
        DataLoader<Long> loader = DataLoader.builder(new CountingDataset(4)).build();
        loader.close();
        loader.close(); // idempotent
        assertThatThrownBy(loader::iterator).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    /** An Error from get(), from fill() or from a stream is reported at its batch with the sample it came from, never skipped. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} workers, policy {1}")
    @org.junit.jupiter.params.provider.CsvSource({"0, FAIL", "2, FAIL", "0, SKIP", "2, SKIP"})
    void anErrorFromGetNamesTheSample(int workers, SamplePolicy policy) {
        CountingDataset ds = new CountingDataset("erring", 10, 0) {
            @Override
            protected Long fetch(long index) {
                if (index == 7) {
                    throw new AssertionError("invariant broken at " + index);
                }
                return super.fetch(index);
            }
        };
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(3).numWorkers(workers).onBadSample(policy)
                .build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            it.next().close();
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e).hasMessageContaining("fetching sample 7 for batch 2 of epoch 0 failed: AssertionError");
            assertThat(e.failedIndex()).hasValue(7);
            assertThat(e.getCause()).isInstanceOf(AssertionError.class);
            try (Batch last = it.next()) { // the pass goes on
                assertThat(last.indices()).containsExactly(9);
            }
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }
}
