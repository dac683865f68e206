package dev.stoker.loader.engine;

import java.time.Duration;

/**
 * Makes batches on worker threads: {@code numWorkers(n)} with {@code n > 0}. Workers are platform
 * threads in this JVM sharing the dataset (nothing is copied or serialized), named
 * {@code stoker-worker-0} to {@code stoker-worker-(n-1)}.
 *
 * <ul>
 *   <li>Map-style: batch {@code k} is made by worker {@code k % n}; the batch sampler alone
 *       decides which samples it holds, so the batches are the same for any {@code n}
 *       ({@link MapWorkerPass}).
 *   <li>Streaming: each worker reads its own stream ({@link StreamWorkerPass}).
 *   <li>Prefetch: each worker has at most {@code prefetchFactor} batches made or being made and
 *       not yet taken; {@code prefetchFactor x n} in all is the pass's memory bound
 *       ({@link ResultBoard}); with an autotuner, {@link LiveSettings} decides how many of the
 *       workers make batches at once and how far ahead, and never what a batch holds.
 *   <li>Delivery in the sampler's order through a reorder buffer, or as ready with
 *       {@code inOrder(false)}.
 *   <li>Without persistent workers the threads start with each pass ({@code iterator()}) and stop
 *       when it ends or is closed; with them, they start with the first pass and stop when the
 *       loader closes, and the {@code workerInit} hook runs once per thread in either case.
 * </ul>
 */
public final class WorkerEngine<T> implements Engine {
    /** How long closing a pass waits for a worker that does not react to its interrupt. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    private final LoaderSettings settings;
    private final Source<T> source;
    private final BatchMaker maker;
    private final Duration grace;
    private final LiveSettings live;
    private WorkerCrew persistent;
    private boolean closed;

    public WorkerEngine(LoaderSettings settings, Source<T> source, BatchMaker maker, Duration grace) {
        this(settings, source, maker, grace, LiveSettings.fixed(Math.max(1, settings.numWorkers()),
                Math.max(1, settings.prefetchFactor())));
    }

    /**
     * An engine whose parallelism and prefetch depth {@code live} decides (the autotuner's);
     * {@code live.lanes()} must be {@code settings.numWorkers()}, which decides the batches.
     */
    public WorkerEngine(LoaderSettings settings, Source<T> source, BatchMaker maker, Duration grace,
                        LiveSettings live) {
        if (live.lanes() != settings.numWorkers()) {
            throw new IllegalArgumentException("the live settings have " + live.lanes() + " lanes, the loader "
                    + settings.numWorkers() + " workers");
        }
        this.live = live;
        if (settings.numWorkers() < 1) {
            throw new IllegalArgumentException("the worker engine needs numWorkers > 0, not " + settings.numWorkers());
        }
        this.settings = settings;
        this.source = source;
        this.maker = maker;
        this.grace = grace;
    }

    @Override
    public synchronized BatchSource start(long epoch) {
        if (closed) {
            throw new IllegalStateException("the workers of " + settings.datasetName() + " were stopped");
        }
        boolean keep = settings.persistentWorkers();
        WorkerCrew crew;
        if (keep) {
            if (persistent == null) {
                persistent = new WorkerCrew(live);
            }
            crew = persistent;
        } else {
            crew = new WorkerCrew(live);
        }
        WorkerPass<T> pass = source.workerPass(epoch, maker, crew, !keep, grace);
        crew.submit(pass);
        return pass;
    }

    /** Stops persistent workers (the loader closed its pass first). Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (persistent != null) {
            persistent.stop(grace);
        }
    }
}
