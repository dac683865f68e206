package dev.stoker.cli;

import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.Shape;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * W1, synthetic-delay, from PyTorch's data-loading tuning tutorial: 512 samples, each a
 * 3x224x224 float32 of Gaussian noise and an int64 label, made after a 5 ms blocking sleep that
 * stands in for slow storage; batch 32, shuffled, 4 epochs. The batched variant sleeps once per
 * batch ({@code getBatch}, PyTorch's {@code __getitems__}).
 *
 * <p>The sleep blocks rather than spins, so the figure to watch is how many samples wait at once:
 * that is what workers buy here.
 */
public final class W1Synthetic implements Workload {
    static final int SAMPLES = 512;
    static final Shape IMAGE = Shape.of(3, 224, 224);
    static final int BATCH = 32;
    static final int EPOCHS = 4;
    static final Duration DELAY = Duration.ofMillis(5);
    /** Worker counts of the tutorial's table. */
    static final int[] WORKERS = {2, 4, 8};
    /** Sample fetches at once in the I/O rows: one batch's worth. */
    static final int IO_CONCURRENCY = 32;

    private final WorkloadSpec spec;
    private final Duration delay;

    /** W1 as defined. */
    public W1Synthetic() {
        this(SAMPLES, DELAY);
    }

    /** A smaller or faster W1, for tests: {@code samples} per epoch and {@code delay} per fetch. */
    public W1Synthetic(int samples, Duration delay) {
        // output bytes: the float32 image (602,112 B), as WORKLOADS.md counts it
        this.spec = new WorkloadSpec("W1", "synthetic-delay", WorkloadSpec.Data.NONE, EPOCHS, BATCH, samples,
                IMAGE.elements() * Float.BYTES);
        this.delay = delay;
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        String image = LongStream.of(IMAGE.toArray()).mapToObj(Long::toString).collect(Collectors.joining("x"));
        return samplesPerEpoch() + " samples of " + image + " f32 noise + an i64 label, " + delay.toMillis()
                + " ms blocking sleep per sample (per batch when batched), batch " + BATCH + ", shuffled";
    }

    /**
     * The tutorial's rows, cumulative: no workers, then workers restarted every epoch, then
     * persistent workers, then the batched fetch; with and without workers. Then Stoker's own
     * rows, {@code fill}: the dataset writes each sample into the batch (zero-copy), no collate;
     * and {@code io=32}: the loader's I/O mode, the 32 samples of a batch fetched (slept) at once
     * on virtual threads. The I/O mode has no batched row: a batched fetch is one call per batch,
     * so there is nothing in it to overlap but the workers' batches, which the batched rows have.
     */
    @Override
    public List<Configuration> configurations() {
        List<Configuration> out = new ArrayList<>();
        out.add(Configuration.of(0, false, false));
        out.add(Configuration.of(0, false, true));
        out.add(Configuration.of(0, false, false).withFill());
        out.add(Configuration.of(0, false, true).withFill());
        out.add(Configuration.of(0, false, false).withIo(IO_CONCURRENCY));
        out.add(Configuration.of(0, false, false).withFill().withIo(IO_CONCURRENCY)); // the rows filled at once
        for (int n : WORKERS) {
            out.add(Configuration.of(n, false, false));
            out.add(Configuration.of(n, true, false));
            out.add(Configuration.of(n, false, true));
            out.add(Configuration.of(n, true, true));
            out.add(Configuration.of(n, true, true).withFill()); // + zero-copy
            out.add(Configuration.of(n, true, false).withIo(IO_CONCURRENCY)); // + I/O concurrency
            out.add(Configuration.of(n, true, false).withFill().withIo(IO_CONCURRENCY)); // + both
        }
        return out;
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        SyntheticDataset dataset = SyntheticDataset.builder()
                .size(spec.samplesPerEpoch())
                .shape(IMAGE)
                .delay(delay)
                .batched(c.batched())
                .seed(seed)
                .build();
        // SyntheticDataset has a getBatch and a fillBatch of its own, which are a loop over get and
        // fill when not batched: the loader would call them as one fetch. Give it the plain view, so
        // that the loader runs that loop itself, as for any dataset without a batched call (the I/O
        // mode fans the samples out, a pass's first batch is shared out to every worker).
        LoaderBuilder<SyntheticSample> builder = DataLoader.builder(!c.batched() ? new PerSample<>(dataset) : dataset);
        return c.applyTo(builder)
                .batchSize(BATCH)
                .shuffle(true)
                .seed(seed)
                .build();
    }
}
