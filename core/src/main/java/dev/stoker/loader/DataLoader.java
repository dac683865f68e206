package dev.stoker.loader;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.engine.BatchMaker;
import dev.stoker.loader.engine.Engine;
import dev.stoker.loader.engine.IoLimit;
import dev.stoker.loader.engine.LiveSettings;
import dev.stoker.loader.engine.LoaderSettings;
import dev.stoker.loader.engine.SerialEngine;
import dev.stoker.loader.engine.Source;
import dev.stoker.loader.engine.StatsCounters;
import dev.stoker.loader.engine.StreamSource;
import dev.stoker.loader.engine.WorkerEngine;
import dev.stoker.memory.BufferPool;
import dev.stoker.metrics.ProcessCpu;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.StageTimes;
import dev.stoker.metrics.Trace;
import dev.stoker.metrics.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a dataset into batches: PyTorch's {@code DataLoader}, with the same settings and words.
 *
 * <p>Each {@link #iterator()} is one pass over the data, one epoch. The epoch advances by itself
 * from pass to pass, starting at 0, unless {@link #setEpoch} names the next one; the order of the
 * samples is a pure function of the seed and the epoch (and, for a streaming dataset, of what the
 * dataset does with its {@link dev.stoker.data.WorkerContext}), never of timing or the number of
 * workers. Batches live in pooled off-heap memory: close each one when done with it.
 *
 * <p>With {@code numWorkers(0)} (the default) batches are made in the thread that iterates, when
 * it asks. With {@code numWorkers(n)} they are made ahead by {@code n} worker threads of this JVM
 * ({@code stoker-worker-0}, ...), which share the dataset: batch {@code k} goes to worker
 * {@code k % n}, each worker keeps at most {@code prefetchFactor} batches ready, and the batches
 * come in the sampler's order (or as ready, {@code inOrder(false)}). For datasets that wait
 * rather than compute, {@code ioConcurrency(c)} fetches the samples of each batch at once on
 * virtual threads. A failed batch comes as a {@link LoaderException} at its place, naming the
 * sample and the worker; with {@code onBadSample(SamplePolicy.SKIP)} a sample that cannot be read
 * is left out of its batch instead, and counted in {@link #stats()}.
 *
 * <pre>{@code
 * try (DataLoader<Sample> loader = DataLoader.builder(dataset)
 *         .batchSize(32).shuffle(true).seed(42)
 *         .build()) {
 *     for (int epoch = 0; epoch < 4; epoch++) {
 *         for (Batch batch : loader) {              // epoch 0, 1, 2, 3
 *             try (batch) {
 *                 Tensor images = batch.tensor("image");
 *             }
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>NOTE: one pass at a time. Starting a pass closes the previous one if it is still open
 * (batches already handed out stay valid), as PyTorch resets its iterator with workers.
 */
public final class DataLoader<T> implements Iterable<Batch>, AutoCloseable {
    /** The budget of a loader's own pool: a cap on what it may hold, not an allocation. */
    public static final long DEFAULT_POOL_BUDGET = 4L << 30;

    private final LoaderSettings settings;
    private final Source<T> source;
    private final BufferPool pool;
    private final boolean ownsPool;
    private final StatsCounters stats = new StatsCounters();
    private final StageClock clock = new StageClock();
    private final BatchMaker maker;
    private final Engine engine;
    private final Periodic periodic;
    private final LiveSettings live; // workers and prefetch now: fixed, or the autotuner's
    private final Autotuner tuner; // null: fixed settings
    private final long streamBatchBytes; // a fill layout's batch bytes, 0 where not declared

    private long epoch;
    /** Whether the next pass uses {@link #epoch} as it is (first pass, or after setEpoch) rather than epoch + 1. */
    private boolean epochPending = true;
    private BatchIterator current;
    /** The last pass started, kept after it closes so that {@link #state()} can say where it ended. */
    private BatchIterator last;
    /** What the passes before {@link #last} cost, summed, for {@link #profile()}. */
    private Usage earlierPasses = Usage.ZERO;
    private boolean closed;

    /** A loader; {@code autotune} is null for fixed settings, else {@code settings.numWorkers()} is its lanes. */
    DataLoader(LoaderSettings settings, Source<T> source, BufferPool pool, boolean ownsPool, Autotune autotune) {
        // Each pass reads the process's CPU time at its start: readied now, off the consumer's thread.
        ProcessCpu.prepareInBackground();
        this.settings = settings;
        this.source = source;
        this.pool = pool;
        this.ownsPool = ownsPool;
        // A user's batch sampler leaves batchSize at 1, so that no batch of theirs counts as short
        this.maker = new BatchMaker(settings.datasetName(), pool, stats, clock, settings.badSamples(),
                settings.batchSize());
        this.streamBatchBytes = source.fillLayout()
                .map(l -> Math.multiplyExact(l.sampleBytes(), (long) settings.batchSize())).orElse(0L);
        if (autotune == null) {
            this.tuner = null;
            this.live = LiveSettings.fixed(Math.max(1, settings.numWorkers()), settings.prefetchFactor());
        } else {
            int lanes = settings.numWorkers();
            int cores = Runtime.getRuntime().availableProcessors();
            boolean stream = source instanceof StreamSource;
            // 0 workers only where asked for (a start at 0, or a replayed 0): the lanes then claim each
            // batch against the consumer's thread, which a loader that never goes to 0 need not pay
            boolean zeroAsked = autotune.startWorkers() == 0
                    || autotune.replay().stream().anyMatch(d -> d.workers() == 0);
            boolean consumerMayMake = zeroAsked && !stream && settings.inOrder(); // a stream's lanes are its streams
            if (autotune.startWorkers() == 0 && !consumerMayMake) {
                throw new IllegalArgumentException("autotune of " + settings.datasetName() + " cannot start at 0"
                        + " workers: " + (stream ? "each lane of a streaming dataset reads its own stream, so one"
                        + " must run" : "the consumer's thread makes batches in order only, and inOrder is false")
                        + "; start at 1 (Autotune.startingAt(1), the default)");
            }
            IoLimit io = source.ioLimit().orElse(null); // the I/O mode, where it applies: its count is the most
            int maxIo = io == null ? 0 : io.size();
            // a stream's lanes hold a batch each whatever the workers, and at most the stream window in all
            TuningPolicy policy = new TuningPolicy(lanes, autotune.maxPrefetch(), autotune.budgetBytes(), cores,
                    stream ? (w, p) -> (int) Math.min((long) lanes * p, streamWindow(autotune.budgetBytes()))
                            : (w, p) -> w * p, maxIo, settings.batchSize());
            this.tuner = new Autotuner(settings.datasetName(), policy, autotune.replay(),
                    () -> inFlightBound().batchBytes(), cores, autotune.startWorkers(),
                    autotune.startIo(), maxIo, this::loadingNanos);
            TuningDecision start = tuner.start();
            this.live = LiveSettings.tuned(lanes, Math.clamp(start.workers(), consumerMayMake ? 0 : 1, lanes),
                    start.prefetch(), tuner, consumerMayMake, io, start.ioConcurrency());
            if (stream) {
                long budget = autotune.budgetBytes();
                live.boundStreamBatches(() -> streamWindow(budget));
            }
        }
        this.engine = settings.numWorkers() == 0
                ? new SerialEngine<>(source, maker)
                : new WorkerEngine<>(settings, source, maker, WorkerEngine.DEFAULT_GRACE, live);
        this.periodic = new Periodic(settings, this, this::state, this::profile);
    }

    /** The workers' time making batches, summed: fetch and collate, less their waits for pool memory (the tuner's). */
    private long loadingNanos() {
        return clock.nanos(Stage.FETCH) + clock.nanos(Stage.COLLATE) - clock.nanos(Stage.MEMORY);
    }

    /**
     * The batches a tuned stream's lanes may hold at once: what fits {@code budget} beside the
     * consumer's batch, each batch the bytes the pool takes for the largest made so far (or the
     * fill layout's), at least 1; 0 while not known. On the fill path the lanes were cut to fit
     * already (see {@code LoaderBuilder}), so this bounds the collate path, whose batch bytes come
     * with the first batch, too late to choose the lanes (which decide the batches) by them.
     */
    private int streamWindow(long budget) {
        long bytes = streamBatchBytes > 0 ? streamBatchBytes : maker.largestBatchBytes();
        if (bytes <= 0) {
            return 0;
        }
        return (int) Math.clamp(budget / BufferPool.classBytes(bytes) - 1, 1, Integer.MAX_VALUE - 1);
    }

    /** A loader over a map-style dataset. */
    public static <T> LoaderBuilder<T> builder(Dataset<T> dataset) {
        return LoaderBuilder.of(Objects.requireNonNull(dataset, "dataset"));
    }

    /** A loader over a streaming dataset: batches of consecutive samples of its stream. */
    public static <T> LoaderBuilder<T> builder(StreamingDataset<T> dataset) {
        return LoaderBuilder.of(Objects.requireNonNull(dataset, "dataset"));
    }

    /**
     * Starts the next pass (epoch); see the class comment.
     *
     * @throws IllegalStateException when the loader is closed
     */
    @Override
    public synchronized BatchIterator iterator() {
        if (closed) {
            throw new IllegalStateException("this loader of " + settings.datasetName() + " is closed");
        }
        if (current != null) {
            current.close();
        }
        if (!epochPending) {
            epoch++;
        }
        epochPending = false;
        Hooks hooks = new Hooks();
        current = new BatchIterator(hooks, epoch, engine.start(epoch), clock);
        hooks.pass = current;
        if (last != null) {
            earlierPasses = earlierPasses.plus(last.activeUsage());
        }
        last = current;
        return current;
    }

    /** What a pass of this loader tells it: batches received (for the periodic work), and its close. */
    private final class Hooks implements PassListener {
        private BatchIterator pass;

        @Override
        public void received() {
            periodic.received();
        }

        @Override
        public void closed() {
            synchronized (DataLoader.this) {
                if (current == pass) {
                    current = null;
                }
            }
        }
    }

    /**
     * The state taken after the last {@code n}-th batch ({@link LoaderBuilder#snapshotEvery}), for
     * a thread other than the consumer's; empty before the first, or without {@code snapshotEvery}.
     */
    public Optional<LoaderState> lastSnapshot() {
        return Optional.ofNullable(periodic.lastSnapshot());
    }

    /**
     * Makes the next pass epoch {@code epoch}; the passes after it count on from there. Like
     * {@code DistributedSampler.set_epoch}, but the loader passes the epoch to its sampler itself.
     */
    public synchronized void setEpoch(long epoch) {
        if (epoch < 0 || epoch >= LoaderState.MAX_COUNT) {
            throw new IllegalArgumentException("an epoch is 0 to 2^53 - 1, not " + epoch);
        }
        this.epoch = epoch;
        this.epochPending = true;
        source.rewind();
    }

    /**
     * Where this loader stands, to go on from there later with {@link #restore}: the epoch of the
     * last pass and which of its batches the consumer has received (a batch counts once
     * {@code next()} returned it or threw its error). A pass that delivered all its batches
     * stands at the start of the next epoch. Cheap enough to take at every step.
     *
     * <pre>{@code
     * for (Batch b : loader) {
     *     try (b) { step(b); }
     *     if (step % 1000 == 0) checkpoint(model, loader.state());
     * }
     * }</pre>
     *
     * <p>For a streaming dataset the state holds where each worker's stream stands
     * ({@link StreamState}); a pass that ran to its end stands at the start of the next epoch.
     */
    public synchronized LoaderState state() {
        if (last == null || epochPending) { // nothing delivered since the plan was set
            return source.pendingState(epoch);
        }
        return source.passState(last.epoch(), last.ranToEnd());
    }

    /**
     * Makes the next pass go on from {@code state}: the batches of its epoch it had not delivered,
     * in the same order, with the same contents, whatever the number of workers before and
     * after; then the epochs after it. No skipped sample is read.
     *
     * <p>A streaming dataset goes on with each worker's stream opened as before and moved past
     * what it had delivered ({@link dev.stoker.data.SampleStream#skip}): the same batches as an
     * uninterrupted run, provided the loader reads the same streams, so the number of workers,
     * the rank, the world size and the batch size must be those of the state (checked), and the
     * dataset must deal out its data the same way.
     *
     * <p>A map-style state names the rank and world size of the batch sampler that took it
     * ({@link dev.stoker.sampler.DistributedSampler}'s, say): it restores only on the same rank
     * of the same world size, where its batches are the same samples, unless the sampler is
     * {@linkplain dev.stoker.sampler.BatchSampler#elastic() elastic}. A state saved before Stoker
     * recorded them restores unchecked.
     *
     * @throws IllegalArgumentException when the state is from another dataset or other settings
     *     (size, seed, batches per epoch, rank and world size; for a streaming dataset workers,
     *     rank, world size and batch size), or is no state this loader can go on from (a state is untrusted: its parts
     *     are checked when it is made or read, and a resharded cursor by the dataset, so that a
     *     forged or damaged one is refused here rather than fail mid-epoch)
     */
    public synchronized void restore(LoaderState state) {
        Objects.requireNonNull(state, "state");
        if (state.epoch() >= LoaderState.MAX_COUNT) { // its end would stand at an epoch no state holds
            throw new IllegalArgumentException("this state is at epoch " + state.epoch() + ", the last there is; a"
                    + " loader goes on from epochs 0 to 2^53 - 1");
        }
        source.restore(state);
        if (current != null) {
            current.close();
        }
        this.epoch = state.epoch();
        this.epochPending = true;
        this.last = null;
    }

    /**
     * The epoch of the pass in progress (or of the last one); before the first pass, or after
     * {@link #setEpoch}, the epoch the next pass will load.
     */
    public synchronized long epoch() {
        return epoch;
    }

    /**
     * Batches per epoch, like {@code len(loader)}: the batch sampler's size.
     *
     * @throws UnsupportedOperationException for a streaming dataset, which has no length
     */
    public long batchesPerEpoch() {
        return source.batchesPerEpoch();
    }

    /**
     * The most batch memory this loader holds ahead of its consumer, in words and bytes:
     * {@code prefetchFactor x numWorkers} batches (one in the caller's thread without workers).
     * With a fillable dataset the bytes are known before the first batch; on the general path
     * they are the largest batch made so far.
     *
     * <pre>{@code
     * System.out.println(loader.inFlightBound());   // 2 prefetch x 4 workers x 19.3 MB = 154.1 MB
     * }</pre>
     */
    public InFlightBound inFlightBound() {
        int workers = settings.numWorkers() == 0 ? 0 : live.workers();
        int lanes = tuner != null && source instanceof StreamSource ? settings.numWorkers() : workers;
        int batches = workers == 0 ? 1 : Math.multiplyExact(live.prefetch(), lanes);
        workers = lanes;
        long largest = maker.largestBatchBytes();
        Optional<SampleLayout> fill = source.fillLayout();
        if (fill.isPresent()) {
            SampleLayout layout = fill.get();
            long declared = Math.multiplyExact(layout.sampleBytes(), (long) settings.batchSize());
            if (declared >= largest) { // a user's batch sampler may make larger batches than batchSize
                return new InFlightBound(batches, workers, declared, false);
            }
        }
        return new InFlightBound(batches, workers, largest == 0 ? -1 : largest, true);
    }

    /**
     * Batches the workers have made and the consumer has not taken yet, in the pass in progress:
     * the queue's depth, for a report or a dashboard read while the loader runs (0 between passes
     * and without workers, where each batch is made when asked). Any thread; cheap.
     */
    public synchronized int queueDepth() {
        return current == null ? 0 : current.ready();
    }

    /** The pool the batches' memory comes from: the one given to the builder, or the loader's own. */
    public BufferPool pool() {
        return pool;
    }

    /** Counters of what the loader has done so far. */
    public LoaderStats stats() {
        boolean threads = settings.numWorkers() > 0;
        return stats.snapshot(stageTimes(), threads ? live.workers() : 0, threads ? live.prefetch() : 0,
                ioConcurrency(), tuner == null ? 0 : tuner.log().size());
    }

    /**
     * The autotuner's changes so far, its start first, each with the batch it took effect at
     * and why (empty for fixed settings). Given back to {@link Autotune#replaying}, it repeats
     * this run's settings batch for batch.
     */
    public List<TuningDecision> tuningLog() {
        return tuner == null ? List.of() : tuner.log();
    }

    public int numWorkers() {
        return settings.numWorkers();
    }

    /**
     * Where the time went so far, stage by stage (fetch, collate, the dataset's read, decode and
     * transform, the consumer's waits and steps), and a verdict in words: data-bound or
     * compute-bound, and why. Cheap: the stages are always timed.
     *
     * <pre>{@code
     * for (Batch b : loader) { try (b) { step(b); } }
     * System.out.println(loader.profile().report());
     * }</pre>
     */
    public synchronized LoaderProfile profile() {
        Usage passes = last != null ? earlierPasses.plus(last.activeUsage()) : earlierPasses;
        return new LoaderProfile(stageTimes(), settings.numWorkers() == 0 ? 0 : live.workers(), live.prefetch(),
                ioConcurrency(), settings.inOrder(), passes, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The I/O mode's fetches at once now: an autotuned loader's count (0 where the I/O mode does not
     * apply: a dataset with its own batched fetch), else the builder's.
     */
    private int ioConcurrency() {
        return live.tuned() ? live.ioConcurrency() : settings.ioConcurrency();
    }

    /**
     * The stage totals alone, as {@link #profile()} has them, without its readings of the CPU
     * counters and without the loader's lock: for metrics read often.
     */
    public StageTimes stageTimes() {
        return clock.times();
    }

    /**
     * The clock every stage of this loader is timed on, for a listener of each span as it ends
     * ({@link StageClock#listen}), such as per-batch histograms on a dashboard:
     *
     * <pre>{@code
     * new BatchHistograms(loader.stageClock(), Tags.of("loader", "train")).bindTo(registry);
     * }</pre>
     */
    public StageClock stageClock() {
        return clock;
    }

    /**
     * Starts recording every stage's spans, thread by thread, into a trace of at most
     * {@code maxEvents} events (about {@value Trace#BYTES_PER_EVENT} bytes each, taken now), until
     * {@link #stopTrace()}; write it with {@link Trace#writeChromeJson(java.nio.file.Path)} and open
     * it in Perfetto. A trace already running is stopped.
     */
    public Trace startTrace(int maxEvents) {
        return clock.startTrace(maxEvents);
    }

    /** Stops the running trace and returns it, or {@code null} when none was started. */
    public Trace stopTrace() {
        return clock.stopTrace();
    }

    /**
     * Ends the pass in progress, stops the engine and, when the loader owns its pool, closes it:
     * the pool then holds nothing, provided every batch was closed (a batch still open is named
     * in the pool's leak report and freed when it is closed). Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (current != null) {
                current.close();
            }
        } finally {
            try {
                engine.close();
            } finally {
                if (ownsPool) {
                    pool.close();
                }
            }
        }
    }

    @Override
    public String toString() {
        return "DataLoader(" + settings.datasetName() + ", " + source.describe() + ", " + settings.numWorkers()
                + " workers)";
    }

}
