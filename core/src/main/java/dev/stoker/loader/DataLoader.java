package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySources;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.StageTimes;
import dev.stoker.metrics.Trace;
import dev.stoker.metrics.Usage;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.RandomSampler;
import dev.stoker.sampler.Sampler;
import dev.stoker.sampler.SequentialSampler;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

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

    private final LoaderSettings<T> settings;
    private final BufferPool pool;
    private final boolean ownsPool;
    private final StatsCounters stats = new StatsCounters();
    private final StageClock clock = new StageClock();
    private final Engine engine;
    private final BatchMaker<T> maker;

    private long epoch;
    /** Whether the next pass uses {@link #epoch} as it is (first pass, or after setEpoch) rather than epoch + 1. */
    private boolean epochPending = true;
    private BatchIterator current;
    /** The last pass started, kept after it closes so that {@link #state()} can say where it ended. */
    private BatchIterator last;
    /** What the passes before {@link #last} cost, summed, for {@link #profile()}. */
    private Usage earlierPasses = Usage.ZERO;
    /** What the next pass makes: the whole epoch, or what a restored state had not delivered. */
    private BatchPlan nextPlan = BatchPlan.WHOLE_EPOCH;
    /** Where the next streaming pass starts: null for the start of the epoch, or a restored state. */
    private StreamState nextStreams;
    /** Batches the consumer has received from this loader, for {@code snapshotEvery}. */
    private long received;
    private volatile LoaderState lastSnapshot;
    /** The profile at the start of the current {@code profileEvery} window; consumer's thread only. */
    private LoaderProfile lastWindow;
    private long lastWindowAt;
    private boolean closed;

    DataLoader(LoaderSettings<T> settings, BufferPool pool, boolean ownsPool) {
        this.settings = settings;
        this.pool = pool;
        this.ownsPool = ownsPool;
        Dataset<T> fetched = settings.dataset();
        int io = settings.ioConcurrency();
        if (fetched instanceof FillableDataset<T> f && io > 0 && !BatchMaker.overridesFillBatch(f)) {
            fetched = new ConcurrentFillDataset<>(f, io); // rows filled at once; samples fetched at once on the collate path
        } else if (fetched != null && io > 0 && !BatchMaker.overridesGetBatch(fetched)) {
            fetched = new ConcurrentFetchDataset<>(fetched, io);
        }
        this.maker = new BatchMaker<>(settings.datasetName(), fetched, settings.streamingDataset(), settings.collate(),
                pool, stats, clock, settings.badSamples());
        this.engine = settings.numWorkers() == 0
                ? new SerialEngine<>(settings, maker)
                : new WorkerEngine<>(settings, maker, WorkerEngine.DEFAULT_GRACE);
    }

    /** A loader over a map-style dataset. */
    public static <T> LoaderBuilder<T> builder(Dataset<T> dataset) {
        return new LoaderBuilder<>(Objects.requireNonNull(dataset, "dataset"), null);
    }

    /** A loader over a streaming dataset: batches of consecutive samples of its stream. */
    public static <T> LoaderBuilder<T> builder(StreamingDataset<T> dataset) {
        return new LoaderBuilder<>(null, Objects.requireNonNull(dataset, "dataset"));
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
        BatchPlan plan = nextPlan;
        nextPlan = BatchPlan.WHOLE_EPOCH;
        StreamState streamStart = nextStreams != null ? nextStreams : freshStreams();
        nextStreams = null;
        DeliveryLog log = settings.isStreaming() ? null : plan.newLog();
        StreamLog streams = settings.isStreaming() ? new StreamLog(streamStart) : null;
        current = new BatchIterator(this, epoch, engine.start(epoch, plan, log, streams), log, streams);
        if (last != null) {
            earlierPasses = earlierPasses.plus(last.activeUsage());
        }
        last = current;
        return current;
    }

    /** Called by a pass when the consumer receives a batch (or its error): takes a snapshot and a profile when due. */
    void received() {
        if (settings.profileEvery() != null) {
            profileWhenDue();
        }
        long every = settings.snapshotEvery();
        if (every == 0) {
            return;
        }
        LoaderState snapshot;
        synchronized (this) {
            if (++received % every != 0) {
                return;
            }
            snapshot = state();
            lastSnapshot = snapshot;
        }
        if (settings.onSnapshot() != null) {
            settings.onSnapshot().accept(snapshot);
        }
    }

    /**
     * The state taken after the last {@code n}-th batch ({@link LoaderBuilder#snapshotEvery}), for
     * a thread other than the consumer's; empty before the first, or without {@code snapshotEvery}.
     */
    public Optional<LoaderState> lastSnapshot() {
        return Optional.ofNullable(lastSnapshot);
    }

    /** Hands the last window's profile to the sink once {@code profileEvery} has passed since the last one. */
    private void profileWhenDue() {
        long now = System.nanoTime();
        if (lastWindow == null) {
            lastWindow = profile(); // the first batch opens the first window
            lastWindowAt = now;
            return;
        }
        if (now - lastWindowAt < settings.profileEvery().toNanos()) {
            return;
        }
        LoaderProfile p = profile();
        LoaderProfile window = p.since(lastWindow);
        lastWindow = p;
        lastWindowAt = now;
        settings.onProfile().accept(window);
    }

    /** Called by a pass when it closes. */
    synchronized void passClosed(BatchIterator pass) {
        if (current == pass) {
            current = null;
        }
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
        this.nextPlan = BatchPlan.WHOLE_EPOCH;
        this.nextStreams = null;
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
        boolean passPending = last == null || epochPending; // nothing delivered since the plan was set
        long passEpoch = passPending ? epoch : last.epoch();
        if (settings.isStreaming()) {
            if (passPending) {
                return LoaderState.ofStreams(epoch, settings.seed(), nextStreams != null ? nextStreams : freshStreams());
            }
            return last.ranToEnd()
                    ? LoaderState.ofStreams(passEpoch + 1, settings.seed(), freshStreams())
                    : LoaderState.ofStreams(passEpoch, settings.seed(), last.streams().snapshot());
        }
        long perEpoch = batchesPerEpoch();
        long size = settings.dataset().size();
        DeliveryLog log = passPending ? nextPlan.newLog() : last.log();
        long prefix = log.prefix();
        if (prefix >= perEpoch) {
            return new LoaderState(passEpoch + 1, 0, new long[0], settings.seed(), size, perEpoch);
        }
        return new LoaderState(passEpoch, prefix, log.ahead(), settings.seed(), size, perEpoch);
    }

    /** The streams of a pass from the start of an epoch: one per worker, one without workers. */
    private StreamState freshStreams() {
        return StreamState.start(settings.rank(), settings.worldSize(), settings.batchSize(),
                Math.max(1, settings.numWorkers()), null);
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
     * @throws IllegalArgumentException when the state is from another dataset or other settings
     *     (size, seed, batches per epoch; for a streaming dataset workers, rank, world size and
     *     batch size), or is no state this loader can go on from (a state is untrusted: its parts
     *     are checked when it is made or read, and a resharded cursor by the dataset, so that a
     *     forged or damaged one is refused here rather than fail mid-epoch)
     */
    public synchronized void restore(LoaderState state) {
        Objects.requireNonNull(state, "state");
        if (state.epoch() >= LoaderState.MAX_COUNT) { // its end would stand at an epoch no state holds
            throw new IllegalArgumentException("this state is at epoch " + state.epoch() + ", the last there is; a"
                    + " loader goes on from epochs 0 to 2^53 - 1");
        }
        if (settings.isStreaming()) {
            restoreStreams(state);
            return;
        }
        if (state.streams() != null) {
            throw new IllegalArgumentException("this state is from a loader of a streaming dataset: " + state
                    + "; this loader reads the map-style " + settings.datasetName());
        }
        long size = settings.dataset().size();
        long perEpoch = batchesPerEpoch();
        if (state.datasetSize() != size || state.seed() != settings.seed() || state.batchesPerEpoch() != perEpoch) {
            throw new IllegalArgumentException("this state is from another loader: " + state + "; this loader reads "
                    + size + " samples of " + settings.datasetName() + " in " + perEpoch + " batches per epoch with seed "
                    + settings.seed());
        }
        if (current != null) {
            current.close();
        }
        this.epoch = state.epoch();
        this.epochPending = true;
        this.last = null;
        this.nextPlan = new BatchPlan(state.nextBatch(), state.deliveredAhead());
    }

    private void restoreStreams(LoaderState state) {
        StreamState s = state.streams();
        if (s == null) {
            throw new IllegalArgumentException("this state is from a loader of a map-style dataset: " + state
                    + "; this loader reads the streaming " + settings.datasetName());
        }
        StreamState mine = freshStreams();
        boolean sameLayout = s.streams() == mine.streams() && s.rank() == mine.rank()
                && s.worldSize() == mine.worldSize();
        if (state.seed() != settings.seed() || s.batchSize() != mine.batchSize()) {
            throw new IllegalArgumentException("this state is from another loader: " + state + "; this loader reads "
                    + settings.datasetName() + " with batch size " + mine.batchSize() + " and seed " + settings.seed());
        }
        if (s.start() != null) {
            checkCursor(s.start());
        }
        if (!sameLayout) {
            s = reshard(state, mine);
        }
        if (current != null) {
            current.close();
        }
        this.epoch = state.epoch();
        this.epochPending = true;
        this.last = null;
        this.nextPlan = BatchPlan.WHOLE_EPOCH;
        this.nextStreams = s;
    }

    /** Refuses a state whose streams started from a cursor this loader's dataset cannot take. */
    private void checkCursor(long[] cursor) {
        if (!(settings.streamingDataset() instanceof ReshardableStreamingDataset<T> reshardable)) {
            throw new IllegalArgumentException("this state's streams started from a resharded cursor, but "
                    + settings.datasetName() + " cannot be resharded, so it cannot go on from one");
        }
        try {
            reshardable.checkCursor(cursor);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("this state's cursor does not fit " + settings.datasetName() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The start of this loader's streams when {@code state} was taken on another layout: what is
     * left of its epoch, as the dataset deals it out again.
     */
    private StreamState reshard(LoaderState state, StreamState mine) {
        StreamState s = state.streams();
        String layouts = "the state's streams are " + s.streams() + " worker(s) on rank " + s.rank() + " of "
                + s.worldSize() + "; this loader has " + mine.streams() + " (" + settings.numWorkers()
                + " workers) on rank " + mine.rank() + " of " + mine.worldSize();
        if (!(settings.streamingDataset() instanceof ReshardableStreamingDataset<T> reshardable)) {
            throw new IllegalArgumentException("this state is from another loader: " + layouts + ". "
                    + settings.datasetName() + " deals its data out to its workers' streams and cannot deal what"
                    + " is left out again, so it resumes only with the same workers, rank and world size");
        }
        if (s.worldSize() != 1) {
            throw new IllegalArgumentException("this state holds rank " + s.rank() + "'s streams only (" + layouts
                    + "): to resume on another layout, merge the states of every rank with LoaderState.merge and"
                    + " restore that");
        }
        long[] cursor;
        try {
            cursor = reshardable.cursor(state.seed(), state.epoch(), s.start(), s.samples(), s.ended());
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(settings.datasetName() + " cannot resume on another layout ("
                    + layouts + "): " + e.getMessage(), e);
        }
        return StreamState.start(mine.rank(), mine.worldSize(), mine.batchSize(), mine.streams(), cursor);
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
        if (settings.isStreaming()) {
            throw new UnsupportedOperationException("a streaming dataset (" + settings.datasetName()
                    + ") has no length; count the batches as they come");
        }
        return settings.batchSampler().size();
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
        int workers = settings.numWorkers();
        int batches = workers == 0 ? 1 : Math.multiplyExact(settings.prefetchFactor(), workers);
        long largest = maker.largestBatchBytes();
        var layout = maker.fillLayout();
        if (layout != null) {
            long declared = Math.multiplyExact(layout.sampleBytes(), (long) settings.batchSize());
            if (declared >= largest) { // a user's batch sampler may make larger batches than batchSize
                return new InFlightBound(batches, workers, declared, false);
            }
        }
        return new InFlightBound(batches, workers, largest == 0 ? -1 : largest, true);
    }

    /** The pool the batches' memory comes from: the one given to the builder, or the loader's own. */
    public BufferPool pool() {
        return pool;
    }

    /** Counters of what the loader has done so far. */
    public LoaderStats stats() {
        return stats.snapshot(stageTimes());
    }

    public int numWorkers() {
        return settings.numWorkers();
    }

    /** The clock the loader's stages are timed on; its passes record the consumer's stages. */
    StageClock clock() {
        return clock;
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
        return new LoaderProfile(stageTimes(), settings.numWorkers(), settings.prefetchFactor(),
                settings.ioConcurrency(), settings.inOrder(), passes, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The stage totals alone, as {@link #profile()} has them, without its readings of the CPU
     * counters and without the loader's lock: for metrics read often.
     */
    public StageTimes stageTimes() {
        return clock.times();
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
        String what = settings.isStreaming()
                ? "streaming, batch " + settings.batchSize() + (settings.dropLast() ? ", drop last" : "")
                : settings.batchSampler().toString();
        return "DataLoader(" + settings.datasetName() + ", " + what + ", " + settings.numWorkers() + " workers)";
    }

}
