package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suites can fail: each is run by hand on a dataset broken in the one way a test of it looks
 * for, and that test fails (where the suites pass on every dataset of the project, this is what
 * says they would notice).
 */
class ContractsCatchBrokenDatasetsTest {
    @TempDir
    Path dir;

    /** Samples 0..n-1, {@code i} to global worker {@code i % workers}, unless broken. */
    private static final class Broken implements StreamingDataset<Long> {
        final boolean everyWorkerReadsAll;
        final boolean skipsOneMore;
        final boolean nullAtTheEnd;
        final Path leak;

        Broken(boolean everyWorkerReadsAll, boolean skipsOneMore, boolean nullAtTheEnd, Path leak) {
            this.everyWorkerReadsAll = everyWorkerReadsAll;
            this.skipsOneMore = skipsOneMore;
            this.nullAtTheEnd = nullAtTheEnd;
            this.leak = leak;
        }

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            if (leak != null) {
                try {
                    FileChannel.open(leak); // never closed
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            int step = everyWorkerReadsAll ? 1 : ctx.globalWorkers();
            return new SampleStream<>() {
                long next = everyWorkerReadsAll ? 0 : ctx.globalWorkerId();

                public boolean hasNext() {
                    return next < 12;
                }

                public Long next() {
                    if (!hasNext()) {
                        if (nullAtTheEnd) {
                            return null;
                        }
                        throw new NoSuchElementException();
                    }
                    long v = next;
                    next += step;
                    return v;
                }

                @Override
                public long skip(long n) {
                    long done = 0;
                    while (done < n && hasNext()) {
                        next += step;
                        done++;
                    }
                    if (skipsOneMore && hasNext()) {
                        next += step;
                    }
                    return done;
                }

                public void close() {}
            };
        }
    }

    private static StreamDatasetContract<Long> stream(Broken broken) {
        return new StreamDatasetContract<>() {
            protected Opened<Long> open() {
                return Opened.of(broken);
            }

            protected Object content(Long s) {
                return s;
            }
        };
    }

    private static void fails(StreamDatasetContract<Long> c, Consumer<StreamDatasetContract<Long>> test) throws Exception {
        c.openDataset();
        try {
            assertThatThrownBy(() -> test.accept(c)).isInstanceOf(AssertionError.class);
        } finally {
            c.closeDataset();
        }
    }

    @Test
    void theStreamingSuiteFailsABrokenStream() throws Exception {
        fails(stream(new Broken(true, false, false, null)), StreamDatasetContract::everyWorkerOfEveryRankReadsItsOwnShare);
        fails(stream(new Broken(false, true, false, null)), StreamDatasetContract::skipThenReadGivesTheRemainder);
        fails(stream(new Broken(false, true, false, null)), StreamDatasetContract::aLoaderRestoredMidEpochDeliversTheSameRemainder);
        fails(stream(new Broken(false, false, true, null)), StreamDatasetContract::aStreamIsAnIterator);
        Path file = Files.writeString(dir.resolve("leaked"), "x");
        fails(stream(new Broken(false, false, false, file)), c -> {
            try {
                c.closingReleasesEverythingAndIsIdempotent();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void theMapSuiteFailsUncheckedBounds() throws Exception {
        MapDatasetContract<Long> c = new MapDatasetContract<>() {
            protected Opened<Long> open() {
                return Opened.of(new Dataset<>() {
                    public long size() {
                        return 8;
                    }

                    public Long get(long i) {
                        return i; // any index reads
                    }
                });
            }

            protected Object content(Long s) {
                return s;
            }
        };
        c.openReader();
        try {
            assertThatThrownBy(c::boundsAreChecked).isInstanceOf(AssertionError.class);
        } finally {
            c.closeReader();
        }
    }

    /** Samples {@code (i, 2i)} as long[2]; broken: fill leaves the second element, or writes it wrong. */
    private static FillableDatasetContract<long[]> fillable(boolean leavesAByte, boolean writesOtherValues) {
        FillableDataset<long[]> ds = new FillableDataset<>() {
            public long size() {
                return 7;
            }

            public long[] get(long i) {
                return new long[] {java.util.Objects.checkIndex(i, 7L), 2 * i};
            }

            public SampleLayout layout() {
                return SampleLayout.single(new SampleLayout.Field("v", DType.I64, Shape.of(2)));
            }

            public void fill(long i, SampleSlot slot) {
                java.util.Objects.checkIndex(i, 7L);
                slot.tensor(0).setLong(0, i);
                if (!leavesAByte) {
                    slot.tensor(0).setLong(1, writesOtherValues ? 3 * i : 2 * i);
                }
            }
        };
        return new FillableDatasetContract<>() {
            protected Opened<long[]> open() {
                return Opened.of(ds);
            }
        };
    }

    @Test
    void theFillableSuiteFailsABrokenFill() throws Exception {
        FillableDatasetContract<long[]> leaves = fillable(true, false);
        leaves.openDataset();
        assertThatThrownBy(leaves::fillWritesEveryByteOfItsSlot).isInstanceOf(AssertionError.class);
        leaves.closeDataset();
        FillableDatasetContract<long[]> other = fillable(false, true);
        other.openDataset();
        assertThatThrownBy(other::fillEqualsCollateByteForByte).isInstanceOf(AssertionError.class);
        other.closeDataset();
        FillableDatasetContract<long[]> good = fillable(false, false);
        good.openDataset();
        good.fillWritesEveryByteOfItsSlot();
        good.fillEqualsCollateByteForByte();
        good.closeDataset();
    }
}
