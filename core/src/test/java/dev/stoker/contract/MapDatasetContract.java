package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every map-style dataset of the project keeps ({@link Dataset}: PyTorch's
 * {@code __len__}, {@code __getitem__} and {@code __getitems__}), run by a subclass per dataset
 * (Lucene's {@code BaseDirectoryTestCase} idea): the size is stable, sequential and random access
 * agree, {@code getBatch} agrees with {@code get}, bounds are checked, concurrent readers see the
 * same samples, the loader (with 0 and 2 workers) delivers every sample once and empties its pool,
 * and a closed reader refuses reads with an exception instead of crashing.
 *
 * <p>A reader that memory-maps a file extends the formats module's {@code MappedDatasetContract},
 * which adds the file cut short mid-epoch; a {@link dev.stoker.data.FillableDataset} runs
 * {@link FillableDatasetContract} as well.
 *
 * <pre>{@code
 * class NpyDatasetContractTest extends MapDatasetContract<Tensor> {
 *     protected Opened<Tensor> open() throws Exception {
 *         NpyDataset ds = NpyDataset.open(file);
 *         return new Opened<>(ds, ds);
 *     }
 *     protected Object content(Tensor t) { return Arrays.toString(t.toFloatArray()); }
 * }
 * }</pre>
 *
 * @param <T> the sample type
 */
public abstract class MapDatasetContract<T> {
    private Dataset<T> dataset;
    private AutoCloseable resource;

    /** The reader under test, with at least 5 samples, and what closes it. */
    public record Opened<T>(Dataset<T> dataset, AutoCloseable resource) {
        /** A dataset that holds nothing to close. */
        public static <T> Opened<T> of(Dataset<T> dataset) {
            return new Opened<>(dataset, () -> {});
        }
    }

    protected abstract Opened<T> open() throws Exception;

    /**
     * A value that is equal for two reads of the same sample (the sample's content, copied out):
     * a string, a list, a record of those, or an array (compared by its elements).
     */
    protected abstract Object content(T sample);

    /** The dataset {@link #open()} gave for this test. */
    protected final Dataset<T> dataset() {
        return dataset;
    }

    /** Whether reads fail after the resource is closed (false for readers that open a file per read). */
    protected boolean closeInvalidatesReads() {
        return true;
    }

    @BeforeEach
    void openReader() throws Exception {
        Opened<T> o = open();
        dataset = o.dataset();
        resource = o.resource();
        assertThat(dataset.size()).as("the contract needs a few samples").isGreaterThanOrEqualTo(5);
    }

    @AfterEach
    void closeReader() throws Exception {
        resource.close();
    }

    @Test
    void sizeIsStable() {
        assertThat(dataset.size()).isEqualTo(dataset.size());
    }

    @Test
    void sequentialAndRandomAccessAgree() {
        int n = (int) dataset.size();
        List<Object> sequential = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sequential.add(content(dataset.get(i)));
        }
        Random rnd = new Random(1);
        for (int k = 0; k < 3 * n; k++) {
            int i = rnd.nextInt(n);
            assertThat(content(dataset.get(i))).as("sample %d read at random", i).isEqualTo(sequential.get(i));
        }
    }

    @Test
    void getBatchAgreesWithGet() {
        int n = (int) dataset.size();
        long[] indices = {n - 1, 0, n / 2, 0, 1};
        dataset.willNeed(indices); // a hint, which returns at once and changes nothing read
        List<T> batch = dataset.getBatch(indices);
        assertThat(batch).hasSize(indices.length);
        for (int j = 0; j < indices.length; j++) {
            assertThat(content(batch.get(j))).isEqualTo(content(dataset.get(indices[j])));
        }
        assertThat(dataset.getBatch(new long[0])).isEmpty();
    }

    @Test
    void boundsAreChecked() {
        long n = dataset.size();
        for (long bad : new long[] {-1, n, n + 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE + 1L}) {
            assertThatThrownBy(() -> dataset.get(bad)).as("index %d", bad).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> dataset.getBatch(new long[] {0, bad})).as("getBatch with index %d", bad)
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void concurrentReadersSeeTheSameSamples() throws Exception {
        int n = (int) dataset.size();
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(content(dataset.get(i)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    Random rnd = new Random(seed);
                    for (int k = 0; k < 4 * n; k++) {
                        int i = rnd.nextInt(n);
                        assertThat(content(dataset.get(i))).isEqualTo(expected.get(i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theLoaderDeliversEverySampleAndEmptiesItsPool() {
        for (int workers : new int[] {0, 2}) {
            long seen = 0;
            BitSet delivered = new BitSet();
            try (DataLoader<T> loader = DataLoader.builder(dataset).batchSize(3).shuffle(true).seed(4)
                    .numWorkers(workers).collate((samples, memory) -> samples).build()) {
                for (Batch b : loader) {
                    try (b) {
                        List<?> samples = (List<?>) b.data();
                        for (int j = 0; j < samples.size(); j++) {
                            @SuppressWarnings("unchecked")
                            T s = (T) samples.get(j);
                            assertThat(content(s)).as("%d workers", workers)
                                    .isEqualTo(content(dataset.get(b.indices()[j])));
                            assertThat(delivered.get((int) b.indices()[j])).as("index %d delivered twice", b.indices()[j])
                                    .isFalse();
                            delivered.set((int) b.indices()[j]);
                        }
                        seen += samples.size();
                    }
                }
                assertThat(loader.pool().lentBytes()).isZero();
            }
            assertThat(seen).as("%d workers", workers).isEqualTo(dataset.size());
        }
    }

    @Test
    void aClosedReaderRefusesReadsWithoutCrashing() throws Exception {
        resource.close();
        resource.close(); // idempotent
        if (closeInvalidatesReads()) {
            assertThatThrownBy(() -> content(dataset.get(0))).isInstanceOf(IllegalStateException.class);
        }
    }
}
