package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class StreamingLoaderTest {

    /** Streams {@code epoch * 1000 + i} for i in [0, n), recording each open and close. */
    private static final class Numbers implements StreamingDataset<Long> {
        final int n;
        final long failAt;
        final List<WorkerContext> opened = new ArrayList<>();
        int closed;

        Numbers(int n, long failAt) {
            this.n = n;
            this.failAt = failAt;
        }

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            opened.add(ctx);
            return new SampleStream<>() {
                long i;

                public boolean hasNext() {
                    return i < n;
                }

                public Long next() {
                    if (i >= n) throw new NoSuchElementException();
                    if (i == failAt) throw new IllegalStateException("corrupt record " + i);
                    return ctx.epoch() * 1000 + i++;
                }

                public void close() {
                    closed++;
                }
            };
        }

        @Override
        public String name() {
            return "numbers";
        }
    }

    private static List<List<Long>> pass(DataLoader<Long> loader) {
        List<List<Long>> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                assertThat(b.indices()).isEmpty();
                List<Long> values = new ArrayList<>();
                for (long v : b.tensor().toLongArray()) values.add(v);
                out.add(values);
            }
        }
        return out;
    }

    @Test
    void consecutiveSamplesFormBatchesAndTheLastMayBeShort() {
        Numbers ds = new Numbers(10, -1);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).seed(9).build()) {
            assertThat(pass(loader)).containsExactly(List.of(0L, 1L, 2L, 3L), List.of(4L, 5L, 6L, 7L), List.of(8L, 9L));
            assertThat(ds.closed).isEqualTo(1);
            assertThat(pass(loader).getFirst()).containsExactly(1000L, 1001L, 1002L, 1003L);
            assertThat(ds.closed).isEqualTo(2);
            assertThat(ds.opened).containsExactly(new WorkerContext(0, 1, 0, 1, 0, 9), new WorkerContext(0, 1, 0, 1, 1, 9));
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void dropLastDropsTheShortBatch() {
        Numbers ds = new Numbers(10, -1);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).dropLast(true).build()) {
            assertThat(pass(loader)).hasSize(2);
            assertThat(ds.closed).isEqualTo(1);
        }
        Numbers exact = new Numbers(8, -1);
        try (DataLoader<Long> loader = DataLoader.builder(exact).batchSize(4).build()) {
            assertThat(pass(loader)).hasSize(2);
        }
        Numbers empty = new Numbers(0, -1);
        try (DataLoader<Long> loader = DataLoader.builder(empty).batchSize(4).build()) {
            assertThat(pass(loader)).isEmpty();
            assertThat(empty.closed).isEqualTo(1);
        }
    }

    @Test
    void rankAndWorldSizeReachTheDataset() {
        Numbers ds = new Numbers(3, -1);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(2).rank(2).worldSize(4).seed(5).build()) {
            loader.setEpoch(7);
            pass(loader);
            assertThat(ds.opened).containsExactly(new WorkerContext(0, 1, 2, 4, 7, 5));
        }
    }

    @Test
    void anAbandonedOrClosedPassClosesItsStream() {
        Numbers ds = new Numbers(100, -1);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).build()) {
            BatchIterator first = loader.iterator();
            first.next().close();
            assertThat(ds.closed).isZero();
            BatchIterator second = loader.iterator(); // the first is abandoned
            assertThat(ds.closed).isEqualTo(1);
            second.next().close();
            second.close();
            assertThat(ds.closed).isEqualTo(2);
            BatchIterator third = loader.iterator();
            third.next().close();
        }
        assertThat(ds.closed).isEqualTo(3); // closing the loader closed the third
    }

    @Test
    void aStreamThatFailsIsNamedAndClosed() {
        Numbers ds = new Numbers(10, 5);
        try (DataLoader<Long> loader = DataLoader.builder(ds).batchSize(4).build()) {
            BatchIterator it = loader.iterator();
            it.next().close();
            LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
            assertThat(e).hasMessage("dataset 'numbers': reading sample 5 of the stream for batch 1 of epoch 0 failed:"
                    + " IllegalStateException: corrupt record 5");
            assertThat(e.indices()).isEmpty();
            assertThat(ds.closed).isEqualTo(1);
            assertThat(it.hasNext()).isFalse();
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void aStreamThatCannotOpenIsNamed() {
        StreamingDataset<Long> broken = ctx -> {
            throw new IllegalStateException("no shards");
        };
        try (DataLoader<Long> loader = DataLoader.builder(broken).batchSize(4).build()) {
            BatchIterator it = loader.iterator();
            assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                    .hasMessageContaining("opening the stream for batch 0 of epoch 0")
                    .hasMessageContaining("no shards");
            assertThat(it.hasNext()).isFalse();
        }
    }

    @Test
    void aStreamHasNoLength() {
        try (DataLoader<Long> loader = DataLoader.builder(new Numbers(3, -1)).build()) {
            assertThatThrownBy(loader::batchesPerEpoch).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("numbers");
        }
    }
}
