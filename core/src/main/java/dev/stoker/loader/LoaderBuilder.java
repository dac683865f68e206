package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.Dataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.engine.LoaderSettings;
import dev.stoker.loader.engine.MapRecipe;
import dev.stoker.loader.engine.MapSource;
import dev.stoker.loader.engine.Source;
import dev.stoker.loader.engine.StreamRecipe;
import dev.stoker.loader.engine.StreamSource;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySources;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.RandomSampler;
import dev.stoker.sampler.Sampler;
import dev.stoker.sampler.SequentialSampler;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The settings of a {@link DataLoader}, from {@link DataLoader#builder(Dataset)}, with PyTorch's names and defaults: batch size 1, no
 * shuffle, seed 0, keep the last partial batch, the default collate, no workers, prefetch
 * factor 2, workers restarted every epoch, no worker-init hook, in-order delivery, no timeout,
 * one fetch at a time (no I/O concurrency), a pool of its own
 * with a {@value DataLoader#DEFAULT_POOL_BUDGET}-byte budget in ordinary memory, and a bad
 * sample failing its batch ({@link SamplePolicy#FAIL}).
 *
 * <p>Settings that contradict each other fail in {@link #build()}, with PyTorch's rules:
 * {@code batchSampler} excludes {@code batchSize}, {@code shuffle}, {@code sampler} and
 * {@code dropLast}; {@code sampler} excludes {@code shuffle}; a streaming dataset takes no
 * sampler, no shuffle and no {@code ioConcurrency}.
 *
 * <pre>{@code
 * DataLoader<Sample> loader = DataLoader.builder(dataset).batchSize(64).shuffle(true).numWorkers(4).build();
 * }</pre>
 */
public final class LoaderBuilder<T> {
    /** Batches of lookahead unless set: a few shards' worth at common batch sizes, for a few kilobytes of indices. */
    public static final int DEFAULT_LOOKAHEAD = 16;

    /** What the loader reads: one dataset, of one kind. */
    private sealed interface Input<T> {
        String name();
    }

    private record Indexed<T>(Dataset<T> dataset) implements Input<T> {
        @Override
        public String name() {
            return dataset.name();
        }
    }

    private record Streamed<T>(StreamingDataset<T> dataset) implements Input<T> {
        @Override
        public String name() {
            return dataset.name();
        }
    }

    private final Input<T> input;
    private int batchSize = 1;
    private boolean batchSizeSet;
    private boolean shuffle;
    private long seed;
    private boolean dropLast;
    private Sampler sampler;
    private BatchSampler batchSampler;
    private Collate<? super T> collate;
    private int numWorkers;
    private int prefetchFactor = 2;
    private boolean persistentWorkers;
    private boolean inOrder = true;
    private Duration timeout = Duration.ZERO;
    private BufferPool pool;
    private long poolBudgetBytes = DataLoader.DEFAULT_POOL_BUDGET;
    private boolean poolBudgetSet;
    private boolean pinMemory;
    private int rank;
    private int worldSize = 1;
    private Consumer<WorkerContext> workerInit;
    private int ioConcurrency;
    private Autotune autotune; // null: the fixed numWorkers and prefetchFactor
    private boolean workersSet;
    private int lookahead = -1; // -1: the default
    private SamplePolicy badSamples = SamplePolicy.FAIL;
    private long snapshotEvery;
    private Duration profileEvery;
    private Consumer<LoaderProfile> onProfile;
    private Consumer<LoaderState> onSnapshot;

    private LoaderBuilder(Input<T> input) {
        this.input = input;
    }

    static <T> LoaderBuilder<T> of(Dataset<T> dataset) {
        return new LoaderBuilder<>(new Indexed<>(dataset));
    }

    static <T> LoaderBuilder<T> of(StreamingDataset<T> dataset) {
        return new LoaderBuilder<>(new Streamed<>(dataset));
    }

    /** Samples per batch (default 1). */
    public LoaderBuilder<T> batchSize(int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive, not " + batchSize);
        }
        this.batchSize = batchSize;
        this.batchSizeSet = true;
        return this;
    }

    /** A new random order every epoch, from {@link #seed} and the epoch (default false). */
    public LoaderBuilder<T> shuffle(boolean shuffle) {
        this.shuffle = shuffle;
        return this;
    }

    /**
     * The seed of the shuffle and of whatever else the loader draws at random; given to a
     * streaming dataset in its worker context (default 0).
     */
    public LoaderBuilder<T> seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** Drops the last batch of an epoch when it is short (default false: keep it). */
    public LoaderBuilder<T> dropLast(boolean dropLast) {
        this.dropLast = dropLast;
        return this;
    }

    /** Which indices each epoch yields, in which order; replaces shuffle. */
    public LoaderBuilder<T> sampler(Sampler sampler) {
        this.sampler = Objects.requireNonNull(sampler, "sampler");
        return this;
    }

    /** The index batches of each epoch; replaces batchSize, shuffle, sampler and dropLast. */
    public LoaderBuilder<T> batchSampler(BatchSampler batchSampler) {
        this.batchSampler = Objects.requireNonNull(batchSampler, "batchSampler");
        return this;
    }

    /**
     * How samples become a batch (default {@link DefaultCollate}). Without one, a
     * {@link dev.stoker.data.FillableDataset} fills each batch in place instead; giving any
     * collate, {@code DefaultCollate.instance()} included, turns that off.
     */
    public LoaderBuilder<T> collate(Collate<? super T> collate) {
        this.collate = Objects.requireNonNull(collate, "collate");
        return this;
    }

    /**
     * Worker threads that make batches ahead, in parallel; 0 (the default) loads in the thread
     * that iterates, when it asks. Workers are threads of this JVM sharing the dataset (so
     * {@code get} must be thread-safe); batch {@code k} is made by worker {@code k % n}, which
     * decides nothing about its samples: the batches are the same for any number of workers.
     * Use about as many as there are cores for work that computes (decode, augment); see
     * {@link #ioConcurrency} for work that waits.
     */
    public LoaderBuilder<T> numWorkers(int numWorkers) {
        if (numWorkers < 0) {
            throw new IllegalArgumentException("numWorkers must be 0 or more (0 loads in the caller's thread), not "
                    + numWorkers);
        }
        this.numWorkers = numWorkers;
        this.workersSet = true;
        return this;
    }

    /**
     * Batches each worker may hold made, or being made, and not yet taken (default 2): the
     * loader holds at most {@code prefetchFactor x numWorkers} batches besides those the
     * consumer has; that is its memory bound. Unused with no workers.
     */
    public LoaderBuilder<T> prefetchFactor(int prefetchFactor) {
        if (prefetchFactor < 1) {
            throw new IllegalArgumentException("prefetchFactor must be positive, not " + prefetchFactor);
        }
        this.prefetchFactor = prefetchFactor;
        this.workersSet = true;
        return this;
    }

    /**
     * Keeps the worker threads, and what {@link #workerInit} set up in them, from one epoch to
     * the next until the loader closes (default false: they start with each pass and stop at
     * its end); needs workers.
     */
    public LoaderBuilder<T> persistentWorkers(boolean persistentWorkers) {
        this.persistentWorkers = persistentWorkers;
        return this;
    }

    /**
     * Delivers batches in sampler order (default true), through a reorder buffer; false
     * delivers each as soon as it is ready, so a fast batch may pass a slow one (the same
     * batches, in another order). For a streaming dataset, in order is PyTorch's: the workers'
     * batches in turn.
     */
    public LoaderBuilder<T> inOrder(boolean inOrder) {
        this.inOrder = inOrder;
        return this;
    }

    /**
     * How long to wait for a worker's batch (default 0: forever). A batch not ready in time
     * raises a {@link LoaderException} naming the worker, the samples it was working on and
     * (as its cause's stack trace) where it was; the pass then ends. Unused with no workers.
     */
    public LoaderBuilder<T> timeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be 0 (wait forever) or positive, not " + timeout);
        }
        this.timeout = timeout;
        return this;
    }

    /**
     * The pool to take batch memory from, shared with others and closed by its owner. Without
     * one the loader makes its own (see {@link #poolBudgetBytes}, {@link #pinMemory}) and
     * closes it with itself.
     */
    public LoaderBuilder<T> pool(BufferPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
        return this;
    }

    /** The budget of the loader's own pool (default {@value DataLoader#DEFAULT_POOL_BUDGET} bytes). */
    public LoaderBuilder<T> poolBudgetBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("poolBudgetBytes must be positive, not " + bytes);
        }
        this.poolBudgetBytes = bytes;
        this.poolBudgetSet = true;
        return this;
    }

    /**
     * Page-locked batch memory for fast copies to an accelerator, PyTorch's {@code pin_memory}:
     * the loader's own pool uses {@link MemorySources#pinned()}: memory registered with the
     * CUDA driver when {@code stoker-cuda} is on the class path and a GPU is there, else
     * {@code mlock}ed memory, else ordinary memory (default false).
     */
    public LoaderBuilder<T> pinMemory(boolean pinMemory) {
        this.pinMemory = pinMemory;
        return this;
    }

    /** This process's rank, given to a streaming dataset to pick its share (default 0). */
    public LoaderBuilder<T> rank(int rank) {
        this.rank = rank;
        return this;
    }

    /** Processes in the job, given to a streaming dataset (default 1). */
    public LoaderBuilder<T> worldSize(int worldSize) {
        this.worldSize = worldSize;
        return this;
    }

    /**
     * Runs {@code hook} once in each worker thread when it starts, before it fetches anything,
     * with that worker's context (PyTorch's {@code worker_init_fn}): to open a connection or a
     * file per worker, or to set up per-worker state. Without persistent workers it runs again
     * in the fresh threads of every pass; with none it does not run. Inside it (and inside every
     * fetch) {@link WorkerContext#current()} and {@link WorkerContext#currentRandom()} give the
     * worker's context and its random generator. An exception from it ends the pass with a
     * {@link LoaderException}.
     *
     * <pre>{@code
     * .workerInit(ctx -> log.info("worker " + ctx.workerId() + " of " + ctx.numWorkers() + " up"))
     * }</pre>
     */
    public LoaderBuilder<T> workerInit(Consumer<WorkerContext> hook) {
        this.workerInit = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /**
     * Takes the loader's {@link DataLoader#state() state} after every {@code n}-th batch the
     * consumer receives (counted over the loader's life, across epochs) and keeps it as
     * {@link DataLoader#lastSnapshot()}, torchdata's {@code snapshot_every_n_steps}: for a
     * checkpoint written by another thread, which reads the last snapshot without racing the
     * training loop. A state costs about 0.1 µs, so {@code n = 1} is fine.
     *
     * <pre>{@code
     * DataLoader.builder(ds).batchSize(64).snapshotEvery(1000).build();
     * // in the checkpoint thread:
     * loader.lastSnapshot().ifPresent(state -> save(state));
     * }</pre>
     */
    public LoaderBuilder<T> snapshotEvery(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("snapshotEvery takes a state every n batches, n at least 1, not " + n);
        }
        this.snapshotEvery = n;
        return this;
    }

    /**
     * As {@link #snapshotEvery(long)}, and gives each snapshot to {@code listener}, in the
     * consumer's thread, right after the batch that completes the {@code n}: a place to write it
     * out (keep it short; the training step waits).
     *
     * <pre>{@code
     * DataLoader.builder(ds).batchSize(64).snapshotEvery(500, state -> queue.offer(state)).build();
     * }</pre>
     */
    public LoaderBuilder<T> snapshotEvery(long n, Consumer<LoaderState> listener) {
        snapshotEvery(n);
        this.onSnapshot = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Every {@code every}, gives {@code sink} the profile of that window
     * ({@link LoaderProfile#since}): what the stages took since the last one and its verdict, so
     * that a long job sees when and why it turned data-bound. Called in the consumer's thread right
     * after the batch that ends a window, so keep the sink short (log, hand off).
     *
     * <pre>{@code
     * DataLoader.builder(ds).batchSize(64).numWorkers(8)
     *         .profileEvery(Duration.ofMinutes(10), p -> metrics.record(p.waitShare()))
     *         .build();
     * }</pre>
     */
    public LoaderBuilder<T> profileEvery(Duration every, Consumer<LoaderProfile> sink) {
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("profileEvery needs a positive period, not " + every);
        }
        this.profileEvery = every;
        this.onProfile = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /**
     * As {@link #profileEvery(Duration, Consumer)}, writing each window's verdict to the log
     * ({@code System.Logger} {@code dev.stoker.loader.DataLoader}): WARNING when data-bound, INFO
     * otherwise. {@code "... data-bound: the loop waited for data 23% of its time ..."}
     */
    public LoaderBuilder<T> profileEvery(Duration every) {
        return profileEvery(every, ProfileLog::write);
    }

    /**
     * The I/O mode, for datasets that wait rather than compute (remote storage, network
     * file systems, slow disks): the samples of each batch are fetched at once, each
     * {@code get} on a virtual thread of its own, at most {@code concurrency} fetches waiting
     * at once in the whole loader (default 0: one fetch after the other). It adds to the
     * workers, it does not replace them: each worker (or, with none, the consumer's thread)
     * still makes one batch at a time and collates it, so the memory bound stays
     * {@code prefetchFactor x numWorkers} batches; only the waits overlap. A good value is the
     * number of requests the storage serves well at once, and at least the batch size times
     * the workers to hide a wait entirely.
     *
     * <p>A {@link dev.stoker.data.FillableDataset} keeps its fill path: the rows of each batch
     * are filled at once, each {@code fill} on a virtual thread of its own. It does nothing for a
     * dataset with its own {@code getBatch} (or, on the fill path, its own {@code fillBatch}):
     * that is one call per batch, so give it workers instead. Compute-heavy datasets gain
     * nothing from it: use {@link #numWorkers}.
     *
     * <p>Under {@link #autotune} the count is the most the tuner may set: it starts at
     * {@link Autotune#startIo()} (1) and doubles it while the consumer waits and the workers are
     * blocked on I/O rather than computing, and takes it back when the consumer no longer waits.
     *
     * <pre>{@code
     * DataLoader.builder(remoteImages).batchSize(32).numWorkers(2).ioConcurrency(64).build();
     * }</pre>
     */
    public LoaderBuilder<T> ioConcurrency(int concurrency) {
        if (concurrency < 0) {
            throw new IllegalArgumentException("ioConcurrency must be 0 (off) or more, not " + concurrency);
        }
        this.ioConcurrency = concurrency;
        return this;
    }

    /**
     * How many batches ahead a map-style dataset hears, through {@link Dataset#willNeed}, of the
     * samples a batch will ask for (default {@value #DEFAULT_LOOKAHEAD}, or the batches in flight,
     * {@code prefetchFactor x numWorkers}, when more; 0 for never). Only index arrays are held
     * for it, and a dataset without {@code willNeed} ignores it. A dataset that fetches remote data on first use
     * ({@code RemoteTarDataset}: a whole shard) starts those fetches that many batches early;
     * raise it when a fetch takes longer than that many steps. The batches and their order stay
     * the sampler's.
     *
     * <pre>{@code
     * DataLoader.builder(remoteShards).batchSampler(shardLocal).numWorkers(4).lookahead(32).build();
     * }</pre>
     */
    public LoaderBuilder<T> lookahead(int batches) {
        if (batches < 0) {
            throw new IllegalArgumentException("lookahead is 0 (off) or more batches, not " + batches);
        }
        this.lookahead = batches;
        return this;
    }

    /**
     * What to do with a sample whose {@code get} or {@code fill} (or a stream's {@code next()})
     * throws an exception (default {@link SamplePolicy#FAIL}: its batch fails with a
     * {@link LoaderException}). {@link SamplePolicy#SKIP} leaves it out of its batch, which
     * comes smaller, counts it in {@link DataLoader#stats()} and logs one skip in 100; see
     * {@link SamplePolicy} for the rules (batched fetches, streams, errors).
     *
     * <pre>{@code
     * DataLoader<Image> loader = DataLoader.builder(scrapedImages).batchSize(64)
     *         .onBadSample(SamplePolicy.SKIP).build();
     * // ... after the epoch:
     * LoaderStats s = loader.stats();
     * System.out.println(s.skippedSamples() + " unreadable, e.g. " + s.lastSkipped());
     * }</pre>
     */
    public LoaderBuilder<T> onBadSample(SamplePolicy policy) {
        this.badSamples = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Lets the loader choose its workers and prefetch while it runs, within {@code budgetBytes}
     * of batch memory: {@code autotune(Autotune.budget(budgetBytes))}.
     */
    public LoaderBuilder<T> autotune(long budgetBytes) {
        return autotune(Autotune.budget(budgetBytes));
    }

    /**
     * Lets the loader choose its workers and prefetch while it runs (see {@link Autotune}):
     * it starts with one worker (or {@link Autotune#startingAt} workers: 0 has the consumer's
     * thread make the first batches of a map-style dataset) and prefetch 1, adds workers and prefetch while the consumer
     * waits for data, and takes them back when it no longer waits, when other processes keep the
     * cores busy, or when the batches in flight would pass the budget. In the I/O mode
     * ({@link #ioConcurrency}) it raises the samples fetched at once, rather than the workers,
     * while the workers wait on I/O. Instead of
     * {@link #numWorkers} and {@link #prefetchFactor}; the loader's own pool gets the budget
     * unless {@link #poolBudgetBytes} says otherwise. The batches are those of
     * {@code numWorkers(autotune.lanes())}, whatever the tuner does; for a streaming dataset that
     * fills a declared layout the lanes are fewer where a batch per lane and the consumer's would
     * not fit the budget (each lane reads its own stream and holds a batch whatever the tuner
     * does), and the batches are those of that many workers; on the collate path the lanes stay
     * and hold, in turn, no more batches at once than fit the budget.
     *
     * <pre>{@code
     * DataLoader<Sample> loader = DataLoader.builder(ds).batchSize(64).autotune(2L << 30).build();
     * for (Batch b : loader) { try (b) { step(b); } }
     * loader.tuningLog();   // [from batch 0: 1 worker, prefetch 1 (start), from batch 12: 2 workers, ...]
     * }</pre>
     */
    public LoaderBuilder<T> autotune(Autotune budget) {
        this.autotune = Objects.requireNonNull(budget, "budget");
        return this;
    }

    /**
     * Checks the settings together and builds the loader.
     *
     * @throws IllegalArgumentException naming the settings that contradict each other
     */
    public DataLoader<T> build() {
        String name = input.name();
        check(name);
        int numWorkers = autotune == null ? this.numWorkers : autotune.lanes();
        StreamRecipe<T> streamRecipe = input instanceof Streamed<T>(StreamingDataset<T> ds) ? streamRecipe(ds) : null;
        if (autotune != null && streamRecipe != null) {
            numWorkers = streamLanes(name, numWorkers, autotune.budgetBytes(), streamRecipe);
        }
        int prefetchFactor = autotune == null ? this.prefetchFactor : autotune.maxPrefetch();
        LoaderSettings settings = new LoaderSettings(name, batchSize, dropLast, numWorkers, prefetchFactor,
                persistentWorkers, inOrder, timeout, seed, rank, worldSize, workerInit, ioConcurrency, badSamples,
                snapshotEvery, onSnapshot, profileEvery, onProfile,
                lookahead >= 0 ? lookahead : Math.max(DEFAULT_LOOKAHEAD, prefetchFactor * Math.max(1, numWorkers)));
        Source<T> source = switch (input) {
            case Indexed<T>(Dataset<T> dataset) -> mapSource(dataset, settings);
            case Streamed<T>(StreamingDataset<T> dataset) -> new StreamSource<>(dataset, streamRecipe, settings);
        };
        boolean own = pool == null;
        BufferPool p = own
                ? BufferPool.builder()
                        .name("loader of " + name)
                        .budgetBytes(autotune != null && !poolBudgetSet ? autotune.budgetBytes() : poolBudgetBytes)
                        .source(pinMemory ? MemorySources.pinned() : MemorySources.ordinary())
                        .build()
                : pool;
        return new DataLoader<>(settings, source, p, own, autotune);
    }

    private MapSource<T> mapSource(Dataset<T> dataset, LoaderSettings settings) {
        BatchSampler batches = batchSampler;
        if (batches == null) {
            Sampler order = sampler != null ? sampler
                    : shuffle ? RandomSampler.of(dataset.size(), seed)
                    : new SequentialSampler(dataset.size());
            batches = BatchSampler.of(order, batchSize, dropLast);
        }
        MapRecipe<T> recipe = collate == null
                ? MapRecipe.byDefault(dataset, ioConcurrency)
                : MapRecipe.collating(dataset, given(), ioConcurrency);
        return new MapSource<>(dataset, batches, recipe, settings);
    }

    private StreamRecipe<T> streamRecipe(StreamingDataset<T> dataset) {
        return collate == null ? StreamRecipe.byDefault(dataset) : new StreamRecipe.Collating<>(given());
    }

    /**
     * The lanes of an autotuned stream: each lane reads its own stream and keeps at least one batch
     * made ahead whatever the tuner decides, so {@code lanes + 1} batches (the consumer's too) must
     * fit the budget. Where the fill layout tells a batch's bytes before the first batch, the
     * lanes are cut to fit (at least one). On the collate path they are known only once the first
     * batch is made, too late to choose the lanes by (they decide the batches): the lanes stay, and
     * the batches they hold at once are bounded, in turn, by what fits the budget beside the
     * consumer's, from the largest batch made so far (see {@code DataLoader#streamWindow}).
     */
    private int streamLanes(String name, int lanes, long budgetBytes, StreamRecipe<T> recipe) {
        Optional<SampleLayout> fill = recipe.fillLayout();
        if (fill.isEmpty()) {
            return lanes;
        }
        SampleLayout layout = fill.get();
        long batchBytes = 0;
        for (int f = 0; f < layout.size(); f++) { // each field is one buffer, rounded as the pool rounds it
            batchBytes += BufferPool.classBytes(Math.multiplyExact(layout.field(f).bytes(), (long) batchSize));
        }
        long fit = budgetBytes / Math.max(1, batchBytes) - 1;
        int cut = (int) Math.max(1, Math.min(lanes, fit));
        if (cut < lanes) {
            long each = batchBytes;
            System.getLogger(LoaderBuilder.class.getName()).log(System.Logger.Level.INFO, () -> "autotune of " + name
                    + ": " + cut + (cut == 1 ? " lane" : " lanes") + " rather than " + lanes + ", so that a batch per"
                    + " lane and the consumer's (" + each + " bytes each) fit the budget of " + budgetBytes + " bytes");
        }
        return cut;
    }

    @SuppressWarnings("unchecked") // a Collate<? super T> takes a List<T>: it only reads the samples
    private Collate<T> given() {
        return (Collate<T>) collate;
    }

    private void check(String name) {
        if (batchSampler != null && (batchSizeSet || shuffle || sampler != null || dropLast)) {
            throw new IllegalArgumentException("batchSampler is mutually exclusive with batchSize, shuffle, sampler"
                    + " and dropLast: the batch sampler decides the batches");
        }
        if (sampler != null && shuffle) {
            throw new IllegalArgumentException("sampler is mutually exclusive with shuffle: the sampler decides"
                    + " the order");
        }
        boolean streaming = input instanceof Streamed;
        if (streaming && (shuffle || sampler != null || batchSampler != null)) {
            String got = shuffle ? "shuffle=true" : sampler != null ? "a sampler" : "a batchSampler";
            throw new IllegalArgumentException("a streaming dataset (" + name + ") has no indices to sample: expected"
                    + " no shuffle, sampler or batchSampler, but got " + got + "; shuffle inside the dataset instead");
        }
        if (streaming && ioConcurrency > 0) {
            throw new IllegalArgumentException("ioConcurrency fetches samples by index, and a streaming dataset ("
                    + name + ") is read in order: give it workers (numWorkers) instead");
        }
        if (autotune != null && workersSet) {
            throw new IllegalArgumentException("autotune chooses the workers and prefetch itself: give it"
                    + " Autotune.maxWorkers/maxPrefetch rather than numWorkers or prefetchFactor");
        }
        if (persistentWorkers && numWorkers == 0 && autotune == null) {
            throw new IllegalArgumentException("persistentWorkers needs numWorkers > 0");
        }
        if (pool != null && (poolBudgetSet || pinMemory)) {
            throw new IllegalArgumentException("poolBudgetBytes and pinMemory configure the loader's own pool; a pool"
                    + " given with pool(...) keeps its own budget and memory source");
        }
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " is not in a world of " + worldSize
                    + " (0 <= rank < worldSize)");
        }
        if (!streaming && worldSize > 1) {
            throw new IllegalArgumentException("rank and worldSize shard a streaming dataset; shard a map-style"
                    + " dataset (" + name + ") with a DistributedSampler passed to sampler(...)");
        }
    }
}
