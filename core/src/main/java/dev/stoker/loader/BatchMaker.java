package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.StreamingDataset;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.Stages;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Builds one batch: fetches its samples, collates them into pooled memory, and wraps the result as
 * a {@link Batch}. Every engine uses it, the caller's thread and (later) the workers alike, so it
 * keeps no state between batches and is safe to call from several threads at once.
 *
 * <p>When the dataset keeps {@link Dataset#getBatch}'s default (a loop over {@code get}), the
 * loop runs here instead, so that a failing {@code get} can be named by its index. A dataset
 * that overrides {@code getBatch} is called once per batch, as PyTorch calls {@code __getitems__}.
 *
 * <p>A {@link FillableDataset} under the loader's default collate takes the fill path instead:
 * the batch tensors of its layout are taken from the pool first, the dataset writes every sample
 * into its row (one {@code fill} per sample, or one {@code fillBatch} when it overrides that), and
 * the tensors become the batch as {@link DefaultCollate} would have arranged them. No sample
 * object, no collate copy. A {@link FillableStreamingDataset} is filled the same way from the
 * samples its stream yields ({@link #assemble}).
 *
 * <p>Under {@link SamplePolicy#SKIP} a sample whose {@code get} or {@code fill} throws an
 * exception is left out: the batch holds the others, in order, and its indices name only those;
 * a batched {@code getBatch} or {@code fillBatch} that fails is retried sample by sample to find
 * the bad ones. On the fill path the delivered samples take rows 0, 1, ... (a failed sample's row
 * is written again by the next one) and the batch tensors are the first rows of the buffers
 * taken, which the batch still owns and gives back whole. A batch left with no sample is not
 * made: {@link #make} returns {@code null} and its memory is already back in the pool.
 */
final class BatchMaker<T> {
    private final AtomicLong largestBatchBytes = new AtomicLong();
    /**
     * The collate a builder uses when none is given: {@link DefaultCollate}, in an object of its
     * own so that "none given" can be told apart from a collate the user chose (which turns the
     * fill path off).
     */
    private static final Collate<Object> DEFAULT_COLLATE = DefaultCollate.instance()::collate;

    private final String datasetName;
    private final Dataset<T> dataset; // null for a streaming dataset
    private final boolean perSample;
    private final Collate<T> collate;
    private final BufferPool pool;
    private final StatsCounters stats;
    private final StageClock clock;
    private final SkippedSamples skips; // null under SamplePolicy.FAIL
    private final FillableDataset<T> fillable; // null unless the fill path is used
    private final FillableStreamingDataset<T> streamFill; // null unless a stream's fill path is used
    private final SampleLayout layout;
    private final boolean fillPerSample;

    BatchMaker(String datasetName, Dataset<T> dataset, StreamingDataset<T> streaming, Collate<T> collate,
               BufferPool pool, StatsCounters stats, StageClock clock, SamplePolicy policy) {
        this.datasetName = datasetName;
        this.dataset = dataset;
        this.perSample = dataset != null && !overridesGetBatch(dataset);
        this.collate = collate;
        this.pool = pool;
        this.stats = stats;
        this.clock = clock;
        this.skips = policy == SamplePolicy.SKIP ? new SkippedSamples(datasetName, stats) : null;
        this.fillable = collate == DEFAULT_COLLATE && dataset instanceof FillableDataset<T> f ? f : null;
        this.streamFill = collate == DEFAULT_COLLATE && streaming instanceof FillableStreamingDataset<T> f ? f : null;
        SampleLayout declared = fillable != null ? fillable.layout() : streamFill != null ? streamFill.layout() : null;
        this.layout = fillable == null && streamFill == null ? null : Objects.requireNonNull(declared,
                () -> "dataset '" + datasetName + "' is fillable but its layout() is null");
        this.fillPerSample = fillable != null && !overridesFillBatch(fillable);
    }

    /** The collate of a loader given none: {@link DefaultCollate}, and the fill path where the dataset has one. */
    @SuppressWarnings("unchecked") // DefaultCollate takes samples of any type
    static <T> Collate<T> defaultCollate() {
        return (Collate<T>) (Collate<?>) DEFAULT_COLLATE;
    }

    /**
     * The layout batches are filled by, or {@code null} on the general path (no fillable dataset,
     * or a collate given): with it the bytes of a batch of {@code n} are known before the first is
     * made, {@code n * layout.sampleBytes()}.
     */
    SampleLayout fillLayout() {
        return layout;
    }

    /** The bytes of the largest batch made so far, 0 before the first: the general path's batch size. */
    long largestBatchBytes() {
        return largestBatchBytes.get();
    }

    private void noteBytes(List<PooledBuffer> buffers) {
        long bytes = 0;
        for (PooledBuffer b : buffers) {
            bytes += b.byteSize();
        }
        largestBatchBytes.accumulateAndGet(bytes, Math::max);
    }

    /** Whether {@code dataset} has its own {@code fillBatch} rather than the default loop. */
    static boolean overridesFillBatch(FillableDataset<?> dataset) {
        try {
            return dataset.getClass().getMethod("fillBatch", long[].class, BatchSlots.class).getDeclaringClass()
                    != FillableDataset.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("FillableDataset.fillBatch(long[], BatchSlots) is public", e);
        }
    }

    /** Whether {@code dataset} has its own {@code getBatch} rather than the default loop. */
    static boolean overridesGetBatch(Dataset<?> dataset) {
        try {
            return dataset.getClass().getMethod("getBatch", long[].class).getDeclaringClass() != Dataset.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("Dataset.getBatch(long[]) is public", e);
        }
    }

    /** Where skipped samples are recorded, or {@code null} under {@link SamplePolicy#FAIL}. */
    SkippedSamples skips() {
        return skips;
    }

    /**
     * Runs {@code action}, the making of batch {@code k} of {@code epoch}, with the loader's clock
     * bound for the dataset's own {@link Stages} spans (read, decode, transform, memory wait).
     */
    <R> R timed(long epoch, long k, Supplier<R> action) {
        return Stages.call(new Stages.Scope(clock, epoch, k), action);
    }

    /** Counts a batch made and adds its fetch and collate spans to the clock. */
    private void loaded(int rows, long epoch, long k, long fetchStart, long fetchEnd, long collateEnd) {
        stats.loaded(rows);
        clock.record(Stage.FETCH, fetchStart, fetchEnd, epoch, k);
        if (collateEnd > fetchEnd) {
            clock.record(Stage.COLLATE, fetchEnd, collateEnd, epoch, k);
        }
    }

    /**
     * Batch {@code k} of {@code epoch} of a map-style dataset: the samples at {@code indices}, less
     * those skipped under {@link SamplePolicy#SKIP}; {@code null} when every one of them was.
     */
    Batch make(long epoch, long k, long[] indices) {
        if (fillable != null) {
            return fill(epoch, k, indices);
        }
        long start = System.nanoTime();
        if (skips != null) {
            Fetched<T> fetched = fetchSkipping(epoch, k, indices);
            if (fetched.samples().isEmpty()) {
                return null;
            }
            return assemble(epoch, k, fetched.indices(), fetched.samples(), start);
        }
        List<T> samples = fetch(epoch, k, indices);
        return assemble(epoch, k, indices, samples, start);
    }

    /** The samples fetched and their indices, the skipped ones left out. */
    private record Fetched<T>(long[] indices, List<T> samples) {}

    /**
     * The fetch under {@link SamplePolicy#SKIP}: a batched {@code getBatch} first when the dataset
     * has one; when that fails (or returns the wrong number), sample by sample with {@code get},
     * leaving out those that throw.
     */
    private Fetched<T> fetchSkipping(long epoch, long k, long[] indices) {
        if (!perSample) {
            try {
                List<T> samples = dataset.getBatch(indices.clone());
                if (samples != null && samples.size() == indices.length) {
                    return new Fetched<>(indices, samples);
                }
            } catch (Error e) { // not a bad sample: reported at its batch, never skipped
                throw failure("fetching the samples of", epoch, k, indices, -1, e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) { // the pass is closing: not a bad sample
                    throw failure("fetching the samples of", epoch, k, indices, -1, e);
                }
                // some sample is bad: find it below
            }
        }
        List<T> samples = new ArrayList<>(indices.length);
        long[] kept = new long[indices.length];
        for (long i : indices) {
            T sample;
            try {
                sample = dataset.get(i);
            } catch (Error e) { // an Error is no bad sample: reported with its index, never skipped
                throw failure("fetching sample " + i + " for", epoch, k, indices, i, e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw failure("fetching sample " + i + " for", epoch, k, indices, i, e);
                }
                skips.skip(epoch, k, i, e);
                continue;
            }
            kept[samples.size()] = i;
            samples.add(sample);
        }
        return new Fetched<>(samples.size() == indices.length ? indices : Arrays.copyOf(kept, samples.size()),
                samples);
    }

    /**
     * Batch {@code k} of {@code epoch} from samples already read (a streaming dataset): collated,
     * or filled into the batch when the stream is fillable; {@code null} when every sample's fill
     * failed under {@link SamplePolicy#SKIP}. {@code fetchStart} is when the fetch of the samples
     * began ({@code System.nanoTime()}): the fetch span starts there, before the dataset's own
     * spans inside it, so that a trace nests them.
     */
    Batch assemble(long epoch, long k, long[] indices, List<T> samples, long fetchStart) {
        if (streamFill != null) {
            return fillStream(epoch, k, samples, fetchStart);
        }
        BatchAssembly memory = new BatchAssembly(pool, "batch " + k + " of epoch " + epoch);
        boolean done = false;
        try {
            long start = System.nanoTime();
            Object data = collate.collate(samples, memory);
            long end = System.nanoTime();
            Batch batch = new Batch(epoch, k, indices, data, memory.buffers());
            noteBytes(memory.buffers());
            loaded(samples.size(), epoch, k, fetchStart, start, end);
            done = true;
            return batch;
        } catch (RuntimeException | Error e) {
            throw failure("collating", epoch, k, indices, -1, e);
        } finally {
            if (!done) {
                memory.release();
            }
        }
    }

    private List<T> fetch(long epoch, long k, long[] indices) {
        if (perSample) {
            List<T> samples = new ArrayList<>(indices.length);
            for (long i : indices) {
                try {
                    samples.add(dataset.get(i));
                } catch (RuntimeException | Error e) { // an Error too: the report names the sample
                    throw failure("fetching sample " + i + " for", epoch, k, indices, i, e);
                }
            }
            return samples;
        }
        List<T> samples;
        try {
            samples = dataset.getBatch(indices.clone()); // a copy: the batch keeps the original
        } catch (RuntimeException | Error e) {
            throw failure("fetching the samples of", epoch, k, indices, -1, e);
        }
        if (samples == null || samples.size() != indices.length) {
            String got = samples == null ? "null" : samples.size() + " samples";
            throw failure("fetching the samples of", epoch, k, indices, -1,
                    new IllegalStateException("getBatch returned " + got + " for " + indices.length + " indices"));
        }
        return samples;
    }

    /** The fill path: the layout's tensors from the pool, every sample written into its row. */
    private Batch fill(long epoch, long k, long[] indices) {
        long start = System.nanoTime();
        BatchAssembly memory = new BatchAssembly(pool, "batch " + k + " of epoch " + epoch);
        boolean done = false;
        try {
            int n = indices.length;
            Tensor[] tensors = new Tensor[layout.size()];
            for (int f = 0; f < tensors.length; f++) {
                SampleLayout.Field field = layout.field(f);
                tensors[f] = memory.allocate(field.dtype(), field.shape().prepend(n));
            }
            BatchSlots slots = new BatchSlots(layout, Arrays.asList(tensors));
            long[] delivered = indices;
            if (fillPerSample && skips != null) {
                delivered = fillSkipping(epoch, k, indices, slots);
            } else if (fillPerSample) {
                for (int j = 0; j < n; j++) {
                    try {
                        fillable.fill(indices[j], slots.slot(j));
                    } catch (RuntimeException | Error e) {
                        String field = slots.lastRow() == j ? fieldOf(slots) : ""; // not a field of an earlier sample
                        throw failure("filling " + field + "sample " + indices[j] + " for", epoch, k,
                                indices, indices[j], e);
                    }
                }
            } else {
                try {
                    fillable.fillBatch(indices.clone(), slots); // a copy: the batch keeps the original
                } catch (Error e) {
                    throw fillBatchFailure(epoch, k, indices, slots, e);
                } catch (Exception e) {
                    if (skips != null && !Thread.currentThread().isInterrupted()) {
                        // some sample is bad: fill the batch again sample by sample, leaving it out
                        delivered = fillSkipping(epoch, k, indices, slots);
                    } else {
                        throw fillBatchFailure(epoch, k, indices, slots, e);
                    }
                }
            }
            int rows = delivered.length;
            if (rows == 0) {
                return null; // every sample was skipped; the finally gives the memory back
            }
            if (rows < n) { // the rows past the delivered ones hold nothing, or half a failed sample
                for (int f = 0; f < tensors.length; f++) {
                    tensors[f] = tensors[f].slice(0, rows);
                }
            }
            Batch batch = new Batch(epoch, k, delivered, arrange(tensors), memory.buffers());
            noteBytes(memory.buffers());
            long end = System.nanoTime();
            loaded(rows, epoch, k, start, end, end);
            done = true;
            return batch;
        } catch (RuntimeException e) {
            if (e instanceof LoaderException) {
                throw e;
            }
            throw failure("allocating", epoch, k, indices, -1, e);
        } finally {
            if (!done) {
                memory.release();
            }
        }
    }

    /**
     * A stream's fill path: the layout's tensors from the pool, each sample written into the next
     * row; under {@link SamplePolicy#SKIP} a sample whose fill fails is left out and its row
     * written again by the next one.
     */
    private Batch fillStream(long epoch, long k, List<T> samples, long fetchStart) {
        long start = System.nanoTime();
        BatchAssembly memory = new BatchAssembly(pool, "batch " + k + " of epoch " + epoch);
        boolean done = false;
        try {
            int n = samples.size();
            Tensor[] tensors = new Tensor[layout.size()];
            for (int f = 0; f < tensors.length; f++) {
                SampleLayout.Field field = layout.field(f);
                tensors[f] = memory.allocate(field.dtype(), field.shape().prepend(n));
            }
            BatchSlots slots = new BatchSlots(layout, Arrays.asList(tensors));
            int rows = 0;
            for (int j = 0; j < n; j++) {
                try {
                    streamFill.fill(samples.get(j), slots.slot(rows));
                    rows++;
                } catch (Error e) { // no bad sample: reported, never skipped
                    throw failure("filling " + fieldOf(slots) + "sample " + j + " of", epoch, k, new long[0], -1, e);
                } catch (RuntimeException e) {
                    if (skips == null || Thread.currentThread().isInterrupted()) {
                        throw failure("filling " + fieldOf(slots) + "sample " + j + " of", epoch, k, new long[0], -1, e);
                    }
                    skips.skip(epoch, k, -1, e); // its position in the stream is not known here: -1
                }
            }
            if (rows == 0) {
                return null;
            }
            if (rows < n) {
                for (int f = 0; f < tensors.length; f++) {
                    tensors[f] = tensors[f].slice(0, rows);
                }
            }
            Batch batch = new Batch(epoch, k, new long[0], arrange(tensors), memory.buffers());
            noteBytes(memory.buffers());
            long end = System.nanoTime();
            loaded(rows, epoch, k, fetchStart, end, end);
            done = true;
            return batch;
        } catch (RuntimeException e) {
            if (e instanceof LoaderException) {
                throw e;
            }
            throw failure("allocating", epoch, k, new long[0], -1, e);
        } finally {
            if (!done) {
                memory.release();
            }
        }
    }

    /**
     * The fill under {@link SamplePolicy#SKIP}, one {@code fill} per sample: the delivered samples
     * take rows 0, 1, ... in order, a failed one's row being written again by the next sample (a
     * fill writes every byte of its row). Returns the indices delivered, in their rows' order.
     */
    private long[] fillSkipping(long epoch, long k, long[] indices, BatchSlots slots) {
        long[] kept = new long[indices.length];
        int rows = 0;
        for (long i : indices) {
            try {
                fillable.fill(i, slots.slot(rows));
            } catch (Error e) {
                throw failure("filling sample " + i + " for", epoch, k, indices, i, e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw failure("filling sample " + i + " for", epoch, k, indices, i, e);
                }
                skips.skip(epoch, k, i, e);
                continue;
            }
            kept[rows++] = i;
        }
        return rows == indices.length ? indices : Arrays.copyOf(kept, rows);
    }

    private LoaderException fillBatchFailure(long epoch, long k, long[] indices, BatchSlots slots, Throwable e) {
        int row = slots.lastRow();
        String sample = row < 0 ? "the samples of" : "sample " + indices[row] + " for";
        return failure("filling " + fieldOf(slots) + sample, epoch, k, indices, row < 0 ? -1 : indices[row], e);
    }

    /** {@code "field 'image' of "}, naming the field the failed fill was writing, when it asked for one. */
    private static String fieldOf(BatchSlots slots) {
        String field = slots.lastField();
        return field == null ? "" : "field '" + field + "' of ";
    }

    /** The batch's value as {@link DefaultCollate} makes it of the equivalent samples. */
    private Object arrange(Tensor[] tensors) {
        return switch (layout.form()) {
            case MAP -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (int f = 0; f < tensors.length; f++) {
                    out.put(layout.field(f).name(), tensors[f]);
                }
                yield out;
            }
            case LIST -> Collections.unmodifiableList(Arrays.asList((Object[]) tensors.clone()));
            case TENSOR -> tensors[0];
        };
    }

    /** Counts a failed batch and describes it; see {@link LoaderException}. */
    LoaderException failure(String what, long epoch, long k, long[] indices, long failedIndex, Throwable cause) {
        stats.failed();
        return new LoaderException(datasetName, what, epoch, k, indices, failedIndex, cause);
    }
}
