package dev.stoker.formats.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.contract.MapDatasetContract;
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
import org.junit.jupiter.api.Test;

/**
 * Core's {@link MapDatasetContract} for a reader that memory-maps a file (through
 * {@link MappedFile}), plus what only such a reader can meet: a mapped file cut short mid-epoch is
 * named in the error, not reported as the JVM's nameless InternalError.
 *
 * @param <T> the sample type
 */
public abstract class MappedDatasetContract<T> extends MapDatasetContract<T> {

    /**
     * The file the reader memory-maps, which {@link #aMappedFileCutShortMidEpochIsNamed} truncates
     * mid-epoch: a copy in the test's folder.
     */
    protected abstract Path mappedFile();

    /**
     * A mapped file truncated mid-epoch (another process cut it short) faults the reads of its map
     * past the new end; the JVM reports that as an InternalError that names nothing. The reader
     * names the file, says it changed, and the sample: MappedFileChangedError, from {@code get}
     * wherever {@code get} reads the map, and from the loader's fill path for a fillable reader.
     */
    @Test
    void aMappedFileCutShortMidEpochIsNamed() throws Exception {
        cutShortMidEpoch(false);
    }

    /**
     * As {@link #aMappedFileCutShortMidEpochIsNamed}, with the reads compiled first (as after a
     * while of training): the JVM then reports a fault late, at the thread's next safepoint poll,
     * which the reader makes come inside its catch ({@code MapFaults.deliverPending()}).
     */
    @Test
    void aHotReadOfAMappedFileCutShortIsNamed() throws Exception {
        cutShortMidEpoch(true);
    }

    private void cutShortMidEpoch(boolean hot) throws Exception {
        Path file = mappedFile();
        Dataset<T> dataset = dataset();
        long n = dataset.size();
        if (hot) {
            for (int round = 0; round < 20_000; round++) {
                dataset.get(round % Math.max(1, n / 2));
            }
            if (dataset instanceof FillableDataset<T>) {
                try (DataLoader<T> loader = DataLoader.builder(dataset).batchSize(2).build()) {
                    for (int epoch = 0; epoch < 20_000 / n + 1; epoch++) {
                        loader.setEpoch(epoch);
                        for (Batch b : loader) {
                            b.close();
                        }
                    }
                }
            }
        }
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
            for (int workers : new int[] {0, 1}) {
                try (DataLoader<T> loader = DataLoader.builder(dataset).batchSize(2).numWorkers(workers).build()) {
                    for (Batch b : loader) {
                        b.close();
                    }
                } catch (RuntimeException | Error e) {
                    failures.add(e);
                }
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
}
