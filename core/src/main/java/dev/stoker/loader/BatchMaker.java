package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

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
 * object, no collate copy.
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
    private final FillableDataset<T> fillable; // null unless the fill path is used
    private final SampleLayout layout;
    private final boolean fillPerSample;

    BatchMaker(String datasetName, Dataset<T> dataset, Collate<T> collate, BufferPool pool, StatsCounters stats) {
        this.datasetName = datasetName;
        this.dataset = dataset;
        this.perSample = dataset != null && !overridesGetBatch(dataset);
        this.collate = collate;
        this.pool = pool;
        this.stats = stats;
        this.fillable = collate == DEFAULT_COLLATE && dataset instanceof FillableDataset<T> f ? f : null;
        this.layout = fillable == null ? null : Objects.requireNonNull(fillable.layout(),
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

    /** Batch {@code k} of {@code epoch} of a map-style dataset: the samples at {@code indices}. */
    Batch make(long epoch, long k, long[] indices) {
        if (fillable != null) {
            return fill(epoch, k, indices);
        }
        long start = System.nanoTime();
        List<T> samples = fetch(epoch, k, indices);
        return assemble(epoch, k, indices, samples, System.nanoTime() - start);
    }

    /** Batch {@code k} of {@code epoch} from samples already read (a streaming dataset). */
    Batch assemble(long epoch, long k, long[] indices, List<T> samples, long fetchNanos) {
        BatchAssembly memory = new BatchAssembly(pool, "batch " + k + " of epoch " + epoch);
        boolean done = false;
        try {
            long start = System.nanoTime();
            Object data = collate.collate(samples, memory);
            long collateNanos = System.nanoTime() - start;
            Batch batch = new Batch(epoch, k, indices, data, memory.buffers());
            noteBytes(memory.buffers());
            stats.loaded(samples.size(), fetchNanos, collateNanos);
            done = true;
            return batch;
        } catch (RuntimeException e) {
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
                } catch (RuntimeException e) {
                    throw failure("fetching sample " + i + " for", epoch, k, indices, i, e);
                }
            }
            return samples;
        }
        List<T> samples;
        try {
            samples = dataset.getBatch(indices.clone()); // a copy: the batch keeps the original
        } catch (RuntimeException e) {
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
            if (fillPerSample) {
                for (int j = 0; j < n; j++) {
                    try {
                        fillable.fill(indices[j], slots.slot(j));
                    } catch (RuntimeException e) {
                        String field = slots.lastRow() == j ? fieldOf(slots) : ""; // not a field of an earlier sample
                        throw failure("filling " + field + "sample " + indices[j] + " for", epoch, k,
                                indices, indices[j], e);
                    }
                }
            } else {
                try {
                    fillable.fillBatch(indices.clone(), slots); // a copy: the batch keeps the original
                } catch (RuntimeException e) {
                    int row = slots.lastRow();
                    String sample = row < 0 ? "the samples of" : "sample " + indices[row] + " for";
                    throw failure("filling " + fieldOf(slots) + sample, epoch, k, indices, row < 0 ? -1 : indices[row],
                            e);
                }
            }
            Batch batch = new Batch(epoch, k, indices, arrange(tensors), memory.buffers());
            noteBytes(memory.buffers());
            stats.loaded(n, System.nanoTime() - start, 0);
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
