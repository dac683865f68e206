package dev.stoker.loader.engine;

import dev.stoker.data.Dataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.LoaderException;
import dev.stoker.metrics.Stages;
import dev.stoker.random.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The loader's I/O mode ({@code ioConcurrency(c)}): a dataset seen through this fetches the
 * samples of a batch all at once, each {@code get} on a virtual thread of its own, with at most
 * {@code c} fetches under way at once in the whole loader ({@link IoLimit}: an autotuned loader
 * changes {@code c} while it runs).
 *
 * <p>Why this design: a dataset that waits (remote storage, a slow disk, W1's 5 ms sleep) spends
 * its time blocked, not computing, so what sets its speed is how many fetches wait at once. A
 * virtual thread that blocks gives its core back, so thousands may wait for the cost of a few
 * kilobytes each, where a platform thread per wait would cost a megabyte of stack and a slot in
 * the scheduler. Fanning out inside a batch, rather than making more batches at once, keeps the
 * loader's memory bound as it is ({@code prefetchFactor x workers} batches: the samples in flight
 * are those of the batches being made) and keeps the time to the first batch at one fetch, not
 * one batch of fetches. The worker (or, without workers, the consumer's thread) waits for its
 * batch's samples and collates them as before; the order of the samples in the batch is the
 * sampler's.
 *
 * <p>A fetch that fails is reported by its sample index; the fetches of the batch not yet done
 * are cancelled (interrupted). Each fetch runs with the worker's {@link WorkerContext} and a
 * generator of its own, {@code new SplittableRandom(Seeds.mix(s, index))} where {@code s} is the
 * seed of the batch's generator ({@link WorkerContext#currentRandomSeed()}), as the fetches of one
 * batch run at once.
 *
 * <p>Used only for a dataset that keeps {@link Dataset#getBatch}'s default loop: a dataset with
 * its own batched fetch is one call per batch, and gets its concurrency from the workers. A
 * fillable dataset is seen through {@link ConcurrentFillDataset}, which fills the rows of a batch
 * at once in the same way.
 */
sealed class ConcurrentFetchDataset<T> implements Dataset<T> permits ConcurrentFillDataset {
    /** Sample {@code index} could not be fetched (or filled); carries the original as its cause. */
    static final class SampleFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long index;
        final String verb;

        SampleFailure(String verb, long index, Throwable cause) {
            super(verb + " sample " + index + " failed", cause, false, false);
            this.index = index;
            this.verb = verb;
        }
    }

    /** One sample's work: {@code j}, its place in the batch, and {@code index}, its dataset index. */
    @FunctionalInterface
    interface SampleTask<R> {
        R run(int j, long index);
    }

    private final Dataset<T> dataset;
    private final IoLimit permits;

    ConcurrentFetchDataset(Dataset<T> dataset, int concurrency) {
        this.permits = IoLimit.of(concurrency);
        this.dataset = dataset;
    }

    /** The fetches at once, which an autotuner may change while the loader runs. */
    final IoLimit limit() {
        return permits;
    }

    /**
     * The failure as {@link SampleFetch} reports it for a per-sample fetch ({@code fetching sample
     * 7 for ...}, with that index and the original cause) when it came from one fetch of this
     * class; else {@code e} as it is.
     */
    static LoaderException refine(LoaderException e) {
        if (e.getCause() instanceof SampleFailure f) {
            return new LoaderException(e.datasetName(), f.verb + " sample " + f.index + " for", e.epoch(),
                    e.batchIndex(), e.indices(), f.index, f.getCause());
        }
        return e;
    }

    @Override
    public long size() {
        return dataset.size();
    }

    @Override
    public T get(long index) {
        return dataset.get(index);
    }

    @Override
    public List<T> getBatch(long[] indices) {
        return fanOut(indices, "fetching", (j, i) -> dataset.get(i));
    }

    /**
     * Runs {@code task} for every sample of the batch at once, each on a virtual thread with the
     * calling worker's context and a generator of its own, at most the loader's I/O concurrency at
     * a time; the results in batch order.
     *
     * @throws SampleFailure for the first sample (in batch order) whose task failed; the tasks
     *     still under way are cancelled
     */
    final <R> List<R> fanOut(long[] indices, String verb, SampleTask<R> task) {
        Optional<WorkerContext> context = WorkerContext.current();
        long seed = context.isPresent() ? WorkerContext.currentRandomSeed() : 0;
        Stages.Scope stages = Stages.current(); // the dataset's stage spans still count for this batch
        List<FutureTask<R>> tasks = new ArrayList<>(indices.length);
        try {
            for (int j = 0; j < indices.length; j++) {
                int place = j;
                long i = indices[j];
                FutureTask<R> t = new FutureTask<>(() -> runOne(context, seed, stages, place, i, task));
                tasks.add(t);
                Thread.ofVirtual().name("stoker-io-" + i).start(t);
            }
            List<R> out = new ArrayList<>(indices.length);
            for (int j = 0; j < indices.length; j++) {
                try {
                    out.add(tasks.get(j).get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof FieldFailure f) {
                        throw new SampleFailure(verb + " field '" + f.field + "' of", indices[j], f.getCause());
                    }
                    throw new SampleFailure(verb, indices[j], e.getCause());
                } catch (CancellationException e) {
                    throw new SampleFailure(verb, indices[j], e);
                }
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + verb + " a batch of " + indices.length + " samples",
                    e);
        } finally {
            for (FutureTask<R> t : tasks) {
                t.cancel(true); // no-op for those done: the others must not run on unwatched
            }
        }
    }

    private <R> R runOne(Optional<WorkerContext> context, long seed, Stages.Scope stages, int j, long index,
                         SampleTask<R> task) throws InterruptedException {
        permits.acquire();
        try {
            if (context.isEmpty()) {
                return Stages.call(stages, () -> task.run(j, index));
            }
            return Stages.call(stages,
                    () -> WorkerScope.call(context.get(), Seeds.mix(seed, index), () -> task.run(j, index)));
        } finally {
            permits.release();
        }
    }

    @Override
    public String name() {
        return dataset.name();
    }
}
