package dev.stoker.cli;

import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import dev.stoker.data.GaussianFill;
import dev.stoker.formats.hdf5.Hdf5Dataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.Tensor;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * W7, hdf5: {@code data (4096, 3, 64, 64) f32} and {@code labels (4096,) i64} of
 * {@code DATA/data.h5} (the PyTorch peers' {@code gen_data.py --only h5}), contiguous as h5py
 * writes them by default, so both are read through the memory map; batch 64, shuffled, one epoch.
 *
 * <p>Without {@code data.h5} in the data folder, it writes an equivalent file once in the cache
 * folder with jhdf's writer (contiguous, as h5py's): the same shapes and types, samples standard
 * normal from {@link GaussianFill} and labels uniform in [0, 1000) from SplitMix64 rather than
 * NumPy's PCG64, so the values differ but not the work.
 * Rows: {@code nw=0}, the general path ({@code get} makes each sample's tensors, the default
 * collate stacks them, as PyTorch does); {@code fill}, each row copied straight from the map into
 * the batch. Each with 0 and 2 workers. The file stays mapped until {@link #close()}.
 */
public final class W7Hdf5 implements Workload {
    static final int SAMPLES = 4096;
    static final int BATCH = 64;
    static final String FILE = "data.h5";
    static final String GENERATED = "data-w7-gaussian.h5";
    static final int CLASSES = 1000;

    private final WorkloadSpec spec;
    private Hdf5Dataset dataset;

    /** W7 as defined. */
    public W7Hdf5() {
        this(SAMPLES);
    }

    /** A W7 over the first {@code samples} rows, for tests (the file must have that many). */
    public W7Hdf5(int samples) {
        // output bytes: the float32 samples, as WORKLOADS.md counts MB/s
        this.spec = new WorkloadSpec("W7", "hdf5", WorkloadSpec.Data.MADE_IF_MISSING, 1, BATCH, samples,
                3L * 64 * 64 * Float.BYTES);
    }

    @Override
    public String missingFrom(Path folder) {
        return Files.isRegularFile(folder.resolve(FILE)) ? null : FILE;
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return samplesPerEpoch() + " rows of data (3, 64, 64) f32 and labels i64 from " + FILE
                + " (contiguous, memory-mapped), batch " + BATCH + ", shuffled";
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 2), Configuration.GENERAL, Configuration.FILL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        if (c.batched()) {
            throw new IllegalArgumentException("W7 has no batched fetch");
        }
        Hdf5Dataset ds = dataset(data);
        int samples = spec.samplesPerEpoch();
        if (ds.size() < samples) {
            throw new IllegalArgumentException("W7: " + data.resolve(FILE) + " has " + ds.size()
                    + " rows, fewer than the " + samples + " asked for");
        }
        Dataset<Map<String, Tensor>> source = samples == ds.size()
                ? ds : Datasets.subset(ds, LongStream.range(0, samples).toArray());
        LoaderBuilder<Map<String, Tensor>> builder = DataLoader.builder(source)
                .batchSize(BATCH)
                .shuffle(true)
                .seed(seed);
        return c.applyTo(builder).build();
    }

    /** The file, opened and mapped on the first call and kept for every repetition. */
    @Override
    public void prepare(Path data) {
        dataset(data);
    }

    private synchronized Hdf5Dataset dataset(Path data) {
        if (dataset == null) {
            Path file = data != null && Files.isRegularFile(data.resolve(FILE)) ? data.resolve(FILE) : generated();
            dataset = Hdf5Dataset.open(file, "data", "labels");
        }
        return dataset;
    }

    /** The cache folder's stand-in for {@code data.h5}, written once (a few seconds). */
    private static Path generated() {
        try {
            return CacheData.file("W7", GENERATED, String.format("no %s in the data folder; writing %,d samples",
                    FILE, SAMPLES), tmp -> writeFile(tmp, SAMPLES, 1234 + 4));
        } catch (IOException e) {
            throw new UncheckedIOException("W7: cannot write its " + GENERATED + ": " + e.getMessage(), e);
        }
    }

    /** Writes {@code rows} W7 samples: {@code data (rows, 3, 64, 64) f32} and {@code labels (rows,) i64}. */
    static void writeFile(Path file, int rows, long seed) {
        float[][][][] values = new float[rows][3][64][64];
        long[] labels = new long[rows];
        long state = seed;
        for (int i = 0; i < rows; i++) {
            for (int c = 0; c < 3; c++) {
                for (int h = 0; h < 64; h++) {
                    GaussianFill.fill(values[i][c][h], Seeds.mix64(state += Seeds.GOLDEN_GAMMA));
                }
            }
            labels[i] = ((Seeds.mix64(state += Seeds.GOLDEN_GAMMA) & 0xFFFF_FFFFL) * CLASSES) >>> 32;
        }
        try (WritableHdfFile out = HdfFile.write(file)) {
            out.putDataset("data", values);
            out.putDataset("labels", labels);
        }
    }

    /** Unmaps the file; a later loader opens it again. */
    @Override
    public synchronized void close() {
        if (dataset != null) {
            dataset.close();
            dataset = null;
        }
    }
}
