package dev.stoker.cli;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.nio.file.Path;
import java.util.List;

/**
 * A benchmark workload of {@code WORKLOADS.md} ({@code W1}, {@code W2}, ...): the dataset, the
 * per-sample work and the batch shapes that both sides, PyTorch and Stoker, run.
 *
 * <p>A workload only builds loaders; the timing, the null consumer and the report are the same
 * for every workload and live in {@link Timer} and {@link BenchCommand}. Building the loader
 * (and the dataset behind it, {@link #prepare}) is not timed, as on the PyTorch side.
 */
public interface Workload extends AutoCloseable {

    /** The workload's constants: name, title, data, epochs, batch size, samples, output bytes. */
    WorkloadSpec spec();

    /** The short name, {@code W1}. */
    default String name() {
        return spec().name();
    }

    /** The long name, {@code synthetic-delay}. */
    default String title() {
        return spec().title();
    }

    /** One line saying what the workload reads and does per sample, for the report's header. */
    String summary();

    /**
     * Whether it reads the files of the benchmark data folder (made by the peers'
     * {@code gen_data.py --root DIR}); W1 makes its data in memory and needs none.
     */
    default boolean needsData() {
        return spec().data() != WorkloadSpec.Data.NONE;
    }

    /**
     * Whether the workload makes an equivalent of its data itself (in the cache folder) when the
     * data folder lacks it, so that a missing folder is no error (W2 writes its own token file).
     */
    default boolean makesMissingData() {
        return spec().data() == WorkloadSpec.Data.MADE_IF_MISSING;
    }

    /**
     * What this workload reads from the data folder that {@code folder} lacks, in words
     * ({@code "tokens.bin"}), or {@code null} when it holds it: a folder the user named with
     * {@code --data} must hold it, as the stand-in made in the cache folder is not their data.
     */
    default String missingFrom(Path folder) {
        return null;
    }

    /** Epochs per repetition. */
    default int epochs() {
        return spec().epochs();
    }

    /** Samples per batch. */
    default int batchSize() {
        return spec().batchSize();
    }

    /** Samples per epoch. */
    default long samplesPerEpoch() {
        return spec().samplesPerEpoch();
    }

    /** Bytes of output per sample for the MB/s column, or 0 where the byte volume is not defined. */
    default long outputBytesPerSample() {
        return spec().outputBytesPerSample();
    }

    /** Every configuration the workload defines, in report order. */
    List<Configuration> configurations();

    /**
     * A fresh loader for one repetition (seeded with the repetition's number, as the PyTorch side
     * seeds its generator). Untimed.
     *
     * @param data the benchmark data folder, or {@code null} when {@link #needsData()} is false
     */
    DataLoader<?> newLoader(Configuration configuration, long seed, Path data);

    /**
     * Builds the dataset the loaders read (scans a folder, opens a file, makes the decoders), once,
     * so that the first loader's cold start can be timed without it: PyTorch's worker start-up,
     * its first {@code iter()}, finds its dataset built too. {@link #newLoader} builds it where this
     * was not called. Untimed by the repetitions; {@code stoker bench} reports its time as
     * {@code cold_dataset_ms}. The default builds nothing: the workload's dataset is made with
     * each loader (W1's is a few objects).
     *
     * @param data the benchmark data folder, or {@code null} when {@link #needsData()} is false
     */
    default void prepare(Path data) {}

    /**
     * What the training loop does to each batch before the null consumer reads it, timed with
     * the loading: nothing for most workloads; W3-recipe's MixUp or CutMix, run on the batch in
     * the loop as a Stoker user runs a {@code BatchOp}.
     */
    default void step(Batch batch) {}

    /**
     * Frees what the workload keeps between repetitions (W6's in-memory tensors). Called once,
     * after the last configuration has run; the default keeps nothing.
     */
    @Override
    default void close() {}

    /** Batches per epoch (the last one may be partial: no workload drops it). */
    default long batchesPerEpoch() {
        return (samplesPerEpoch() + batchSize() - 1) / batchSize();
    }

    /**
     * Where benchmark data is looked for when {@code --data} is not given:
     * {@code $XDG_CACHE_HOME/stoker/bench-data}, else {@code ~/.cache/stoker/bench-data}. The
     * workloads that need data say how to make it there.
     */
    static Path defaultDataFolder() {
        String cache = System.getenv("XDG_CACHE_HOME");
        Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("stoker").resolve("bench-data");
    }
}
