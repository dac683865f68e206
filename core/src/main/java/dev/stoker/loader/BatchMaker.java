package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.data.Dataset;
import dev.stoker.memory.BufferPool;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds one batch: fetches its samples, collates them into pooled memory, and wraps the result as
 * a {@link Batch}. Every engine uses it, the caller's thread and (later) the workers alike, so it
 * keeps no state between batches and is safe to call from several threads at once.
 *
 * <p>When the dataset keeps {@link Dataset#getBatch}'s default (a loop over {@code get}), the
 * loop runs here instead, so that a failing {@code get} can be named by its index. A dataset
 * that overrides {@code getBatch} is called once per batch, as PyTorch calls {@code __getitems__}.
 */
final class BatchMaker<T> {
    private final String datasetName;
    private final Dataset<T> dataset; // null for a streaming dataset
    private final boolean perSample;
    private final Collate<T> collate;
    private final BufferPool pool;
    private final StatsCounters stats;

    BatchMaker(String datasetName, Dataset<T> dataset, Collate<T> collate, BufferPool pool, StatsCounters stats) {
        this.datasetName = datasetName;
        this.dataset = dataset;
        this.perSample = dataset != null && !overridesGetBatch(dataset);
        this.collate = collate;
        this.pool = pool;
        this.stats = stats;
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

    /** Counts a failed batch and describes it; see {@link LoaderException}. */
    LoaderException failure(String what, long epoch, long k, long[] indices, long failedIndex, Throwable cause) {
        stats.failed();
        return new LoaderException(datasetName, what, epoch, k, indices, failedIndex, cause);
    }
}
