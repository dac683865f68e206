package dev.stoker.cli;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.TensorDataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * W6, in-memory-tensors (PyTorch's "serialization tax"): a {@link TensorDataset} of 2000 images
 * 3x224x224 float32 uniform in [0, 1) (1.2 GB) and 2000 int64 labels in [0, 1000); batch 64,
 * shuffled, one epoch. On PyTorch's side workers pay for moving each batch through shared memory;
 * here workers are threads over the same tensors, and the batch can be gathered straight into
 * pooled memory.
 *
 * <p>Rows: {@code nw=0}, a view per sample then the default collate's stack (PyTorch's default);
 * {@code fill}, each row copied straight into the batch; {@code batched fill}, one gather per batch
 * ({@code fillBatch}: PyTorch's batched {@code data[idx]} row). Each with 0 and 2 workers.
 *
 * <p>The tensors live off the Java heap in an arena of their own, made on the first loader
 * (untimed, like the PyTorch side's dataset) and shared by every repetition; {@link #close()}
 * frees them.
 */
public final class W6InMemoryTensors implements Workload {
    static final int SAMPLES = 2000;
    static final Shape IMAGE = Shape.of(3, 224, 224);
    static final int BATCH = 64;
    static final int CLASSES = 1000;
    /** The PyTorch side's generator seed. */
    static final long DATA_SEED = 0;

    private final WorkloadSpec spec;
    private Arena arena;
    private TensorDataset<List<Tensor>> dataset;

    /** W6 as defined. */
    public W6InMemoryTensors() {
        this(SAMPLES);
    }

    /** A smaller W6, for tests. */
    public W6InMemoryTensors(int samples) {
        // output bytes: the float32 image (1.204 GB per epoch), as WORKLOADS.md counts it
        this.spec = new WorkloadSpec("W6", "in-memory-tensors", WorkloadSpec.Data.NONE, 1, BATCH, samples,
                IMAGE.elements() * Float.BYTES);
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return samplesPerEpoch() + " samples of 3x224x224 f32 in memory (" + String.format("%.2f GB",
                samplesPerEpoch() * outputBytesPerSample() / 1e9) + ", off-heap) + an i64 label, batch " + BATCH
                + ", shuffled";
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 2), Configuration.GENERAL, Configuration.FILL, Configuration.BATCHED_FILL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        FillableDataset<List<Tensor>> ds = PerSample.forRow("W6", data(), c);
        LoaderBuilder<List<Tensor>> builder = DataLoader.builder(ds)
                .batchSize(BATCH)
                .shuffle(true)
                .seed(seed);
        return c.applyTo(builder).build();
    }

    /** The tensors, made on the first call: uniform floats and labels from {@link #DATA_SEED}. */
    synchronized TensorDataset<List<Tensor>> data() {
        if (dataset == null) {
            int samples = spec.samplesPerEpoch();
            arena = Arena.ofShared(); // workers on other threads read it
            Tensor images = new Tensor(arena.allocate((long) samples * outputBytesPerSample(), 64), DType.F32,
                    IMAGE.prepend(samples));
            Tensor labels = new Tensor(arena.allocate((long) samples * Long.BYTES, 64), DType.I64, Shape.of(samples));
            uniform(images.segment(), images.elements(), Seeds.mix64(DATA_SEED));
            long state = Seeds.mix64(DATA_SEED ^ 0x6C61_6265_6C73L);
            for (int i = 0; i < samples; i++) {
                labels.setLong(i, Seeds.below(Seeds.mix64(state += Seeds.GOLDEN_GAMMA), CLASSES));
            }
            dataset = TensorDataset.of(images, labels);
        }
        return dataset;
    }

    /** {@code count} float32 values uniform in [0, 1), like {@code torch.rand}: 24 random bits each. */
    private static void uniform(MemorySegment dst, long count, long state) {
        final float scale = 0x1.0p-24f;
        for (long i = 0; i < count; i++) {
            long z = Seeds.mix64(state += Seeds.GOLDEN_GAMMA);
            dst.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (z >>> 40) * scale);
        }
    }

    /** Frees the tensors; a later loader makes them again. */
    @Override
    public synchronized void close() {
        if (arena != null) {
            dataset = null;
            arena.close();
            arena = null;
        }
    }
}
