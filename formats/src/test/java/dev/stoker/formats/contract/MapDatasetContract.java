package dev.stoker.formats.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.formats.mmap.MappedFile;
import dev.stoker.formats.mmap.MappedFileChangedError;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
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
 * The contract every map-style reader of the formats module keeps, run by a subclass per reader
 * (Lucene's {@code BaseDirectoryTestCase} idea): the size is stable, sequential and random access
 * agree, {@code getBatch} agrees with {@code get}, bounds are checked, concurrent readers see the
 * same samples, the loader (with 0 and 2 workers) delivers every sample and empties its pool, a closed reader
 * refuses reads with an exception instead of crashing, and a mapped file cut short mid-epoch is
 * named in the error, not reported as the JVM's nameless InternalError.
 *
 * @param <T> the sample type
 */
public abstract class MapDatasetContract<T> {
    private Dataset<T> dataset;
    private AutoCloseable resource;

    /** The reader under test, with at least 5 samples, and what closes it. */
    public record Opened<T>(Dataset<T> dataset, AutoCloseable resource) {}

    protected abstract Opened<T> open() throws Exception;

    /** A value that is equal for two reads of the same sample (the sample's content, copied out). */
    protected abstract Object content(T sample);

    /**
     * The file the reader memory-maps, which {@link #aMappedFileCutShortMidEpochIsNamed} truncates
     * mid-epoch; null (the default) for a reader that maps nothing, or whose reads of the map run in
     * native code (liblmdb: a fault there cannot be caught, only avoided).
     */
    protected Path mappedFile() {
        return null;
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
        List<T> batch = dataset.getBatch(indices);
        assertThat(batch).hasSize(indices.length);
        for (int j = 0; j < indices.length; j++) {
            assertThat(content(batch.get(j))).isEqualTo(content(dataset.get(indices[j])));
        }
    }

    @Test
    void boundsAreChecked() {
        long n = dataset.size();
        for (long bad : new long[] {-1, n, n + 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE + 1L}) {
            assertThatThrownBy(() -> dataset.get(bad)).as("index %d", bad).isInstanceOf(IndexOutOfBoundsException.class);
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
                        }
                        seen += samples.size();
                    }
                }
                assertThat(loader.pool().lentBytes()).isZero();
            }
            assertThat(seen).as("%d workers", workers).isEqualTo(dataset.size());
        }
    }

    /**
     * A mapped file truncated mid-epoch (another process cut it short) faults the reads of its map
     * past the new end; the JVM reports that as an InternalError that names nothing. The reader
     * names the file, says it changed, and the sample: MappedFileChangedError, from {@code get}
     * wherever {@code get} reads the map, and from the loader's fill path for a fillable reader.
     */
    @Test
    void aMappedFileCutShortMidEpochIsNamed() throws Exception {
        Path file = mappedFile();
        assumeTrue(file != null, "this reader maps no file");
        long n = dataset.size();
        for (long i = 0; i < n / 2; i++) {
            content(dataset.get(i)); // the first half of the epoch reads well
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(0);
        }
        List<Throwable> failures = new ArrayList<>();
        for (long i = n / 2; i < n; i++) {
            try {
                dataset.get(i);
            } catch (RuntimeException | Error e) {
                failures.add(e);
            }
        }
        if (dataset instanceof FillableDataset<T>) { // the loader writes samples into the batch: the reads are fill's
            try (DataLoader<T> loader = DataLoader.builder(dataset).batchSize(2).numWorkers(1).build()) {
                for (Batch b : loader) {
                    b.close();
                }
            } catch (RuntimeException | Error e) {
                failures.add(e);
            }
        }
        assertThat(failures).as("reads of the truncated map fail").isNotEmpty();
        for (Throwable f : failures) {
            Throwable named = f;
            while (named != null && !(named instanceof MappedFileChangedError)) {
                named = named.getCause();
            }
            assertThat(named).as("a named failure, not %s", f).isNotNull();
            assertThat(named.getMessage()).contains(file.toString()).contains("changed while it was memory-mapped")
                    .contains("is now 0 bytes").containsPattern("(sample|window|row|key) [0-9]+");
            assertThat(((MappedFileChangedError) named).file()).isEqualTo(file);
        }
        // the JVM and the process are fine: another map reads as before
        Path other = Files.createTempFile("stoker-contract", ".bin");
        try {
            Files.write(other, new byte[] {7, 8, 9});
            try (MappedFile m = MappedFile.open(other)) {
                assertThat(m.segment().get(ValueLayout.JAVA_BYTE, 2)).isEqualTo((byte) 9);
            }
        } finally {
            Files.delete(other);
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
