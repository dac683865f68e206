package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.Dataset;
import dev.stoker.data.StreamingDataset;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySources;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.RandomSampler;
import dev.stoker.sampler.Sampler;
import dev.stoker.sampler.SequentialSampler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns a dataset into batches: PyTorch's {@code DataLoader}, with the same settings and words.
 *
 * <p>Each {@link #iterator()} is one pass over the data, one epoch. The epoch advances by itself
 * from pass to pass, starting at 0, unless {@link #setEpoch} names the next one; the order of the
 * samples is a pure function of the seed and the epoch (and, for a streaming dataset, of what the
 * dataset does with its {@link dev.stoker.data.WorkerContext}), never of timing or the number of
 * workers. Batches live in pooled off-heap memory: close each one when done with it.
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
    private static final System.Logger LOG = System.getLogger(DataLoader.class.getName());
    private static final AtomicBoolean WORKERS_NOTICE_GIVEN = new AtomicBoolean();
    /** The budget of a loader's own pool: a cap on what it may hold, not an allocation. */
    public static final long DEFAULT_POOL_BUDGET = 4L << 30;

    private final LoaderSettings<T> settings;
    private final BufferPool pool;
    private final boolean ownsPool;
    private final StatsCounters stats = new StatsCounters();
    private final Engine engine;

    private long epoch;
    /** Whether the next pass uses {@link #epoch} as it is (first pass, or after setEpoch) rather than epoch + 1. */
    private boolean epochPending = true;
    private BatchIterator current;
    private boolean closed;

    private DataLoader(LoaderSettings<T> settings, BufferPool pool, boolean ownsPool) {
        this.settings = settings;
        this.pool = pool;
        this.ownsPool = ownsPool;
        BatchMaker<T> maker = new BatchMaker<>(settings.datasetName(), settings.dataset(), settings.collate(), pool,
                stats);
        if (settings.numWorkers() > 0 && WORKERS_NOTICE_GIVEN.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.INFO, "numWorkers=" + settings.numWorkers()
                    + ": the parallel engine is not built yet; loading in the caller's thread");
        }
        this.engine = new SerialEngine<>(settings, maker);
    }

    /** A loader over a map-style dataset. */
    public static <T> Builder<T> builder(Dataset<T> dataset) {
        return new Builder<>(Objects.requireNonNull(dataset, "dataset"), null);
    }

    /** A loader over a streaming dataset: batches of consecutive samples of its stream. */
    public static <T> Builder<T> builder(StreamingDataset<T> dataset) {
        return new Builder<>(null, Objects.requireNonNull(dataset, "dataset"));
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
        current = new BatchIterator(this, epoch, engine.start(epoch));
        return current;
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
        if (epoch < 0) {
            throw new IllegalArgumentException("an epoch is 0 or more, not " + epoch);
        }
        this.epoch = epoch;
        this.epochPending = true;
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

    /** The pool the batches' memory comes from: the one given to the builder, or the loader's own. */
    public BufferPool pool() {
        return pool;
    }

    /** Counters of what the loader has done so far. */
    public LoaderStats stats() {
        return stats.snapshot();
    }

    public int numWorkers() {
        return settings.numWorkers();
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

    /**
     * Settings of a {@link DataLoader}, with PyTorch's names and defaults: batch size 1, no
     * shuffle, seed 0, keep the last partial batch, the default collate, no workers, prefetch
     * factor 2, workers restarted every epoch, in-order delivery, no timeout, a pool of its own
     * with a {@value DataLoader#DEFAULT_POOL_BUDGET}-byte budget in ordinary memory.
     *
     * <p>Settings that contradict each other fail in {@link #build()}, with PyTorch's rules:
     * {@code batchSampler} excludes {@code batchSize}, {@code shuffle}, {@code sampler} and
     * {@code dropLast}; {@code sampler} excludes {@code shuffle}; a streaming dataset takes no
     * sampler and no shuffle.
     */
    public static final class Builder<T> {
        private final Dataset<T> dataset;
        private final StreamingDataset<T> streaming;
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
        private long poolBudgetBytes = DEFAULT_POOL_BUDGET;
        private boolean poolBudgetSet;
        private boolean pinMemory;
        private int rank;
        private int worldSize = 1;

        private Builder(Dataset<T> dataset, StreamingDataset<T> streaming) {
            this.dataset = dataset;
            this.streaming = streaming;
        }

        /** Samples per batch (default 1). */
        public Builder<T> batchSize(int batchSize) {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be positive, not " + batchSize);
            }
            this.batchSize = batchSize;
            this.batchSizeSet = true;
            return this;
        }

        /** A new random order every epoch, from {@link #seed} and the epoch (default false). */
        public Builder<T> shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /**
         * The seed of the shuffle and of whatever else the loader draws at random; given to a
         * streaming dataset in its worker context (default 0).
         */
        public Builder<T> seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Drops the last batch of an epoch when it is short (default false: keep it). */
        public Builder<T> dropLast(boolean dropLast) {
            this.dropLast = dropLast;
            return this;
        }

        /** Which indices each epoch yields, in which order; replaces shuffle. */
        public Builder<T> sampler(Sampler sampler) {
            this.sampler = Objects.requireNonNull(sampler, "sampler");
            return this;
        }

        /** The index batches of each epoch; replaces batchSize, shuffle, sampler and dropLast. */
        public Builder<T> batchSampler(BatchSampler batchSampler) {
            this.batchSampler = Objects.requireNonNull(batchSampler, "batchSampler");
            return this;
        }

        /** How samples become a batch (default {@link DefaultCollate}). */
        public Builder<T> collate(Collate<? super T> collate) {
            this.collate = Objects.requireNonNull(collate, "collate");
            return this;
        }

        /** Threads that load batches; 0 (the default) loads in the thread that iterates. */
        public Builder<T> numWorkers(int numWorkers) {
            if (numWorkers < 0) {
                throw new IllegalArgumentException("numWorkers must be 0 or more (0 loads in the caller's thread), not "
                        + numWorkers);
            }
            this.numWorkers = numWorkers;
            return this;
        }

        /** Batches loaded ahead per worker (default 2); unused with no workers. */
        public Builder<T> prefetchFactor(int prefetchFactor) {
            if (prefetchFactor < 1) {
                throw new IllegalArgumentException("prefetchFactor must be positive, not " + prefetchFactor);
            }
            this.prefetchFactor = prefetchFactor;
            return this;
        }

        /** Keeps the workers from one epoch to the next (default false); needs workers. */
        public Builder<T> persistentWorkers(boolean persistentWorkers) {
            this.persistentWorkers = persistentWorkers;
            return this;
        }

        /** Delivers batches in sampler order (default true); false lets a fast batch pass a slow one. */
        public Builder<T> inOrder(boolean inOrder) {
            this.inOrder = inOrder;
            return this;
        }

        /** How long to wait for a worker's batch before reporting it (default 0: forever); unused with no workers. */
        public Builder<T> timeout(Duration timeout) {
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
        public Builder<T> pool(BufferPool pool) {
            this.pool = Objects.requireNonNull(pool, "pool");
            return this;
        }

        /** The budget of the loader's own pool (default {@value DataLoader#DEFAULT_POOL_BUDGET} bytes). */
        public Builder<T> poolBudgetBytes(long bytes) {
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
        public Builder<T> pinMemory(boolean pinMemory) {
            this.pinMemory = pinMemory;
            return this;
        }

        /** This process's rank, given to a streaming dataset to pick its share (default 0). */
        public Builder<T> rank(int rank) {
            this.rank = rank;
            return this;
        }

        /** Processes in the job, given to a streaming dataset (default 1). */
        public Builder<T> worldSize(int worldSize) {
            this.worldSize = worldSize;
            return this;
        }

        /**
         * Checks the settings together and builds the loader.
         *
         * @throws IllegalArgumentException naming the settings that contradict each other
         */
        public DataLoader<T> build() {
            String name = dataset != null ? dataset.name() : streaming.name();
            check(name);
            BatchSampler batches = null;
            if (dataset != null) {
                batches = batchSampler;
                if (batches == null) {
                    Sampler order = sampler != null ? sampler
                            : shuffle ? RandomSampler.of(dataset.size(), seed)
                            : new SequentialSampler(dataset.size());
                    batches = BatchSampler.of(order, batchSize, dropLast);
                }
            }
            @SuppressWarnings("unchecked") // a Collate<? super T> takes a List<T>: it only reads the samples
            Collate<T> c = collate != null ? (Collate<T>) collate : DefaultCollate.instance()::collate;
            LoaderSettings<T> settings = new LoaderSettings<>(name, dataset, streaming, batches, batchSize, dropLast,
                    c, numWorkers, prefetchFactor, persistentWorkers, inOrder, timeout, seed, rank, worldSize);
            boolean own = pool == null;
            BufferPool p = own
                    ? BufferPool.builder()
                            .name("loader of " + name)
                            .budgetBytes(poolBudgetBytes)
                            .source(pinMemory ? MemorySources.pinned() : MemorySources.ordinary())
                            .build()
                    : pool;
            return new DataLoader<>(settings, p, own);
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
            if (streaming != null && (shuffle || sampler != null || batchSampler != null)) {
                String got = shuffle ? "shuffle=true" : sampler != null ? "a sampler" : "a batchSampler";
                throw new IllegalArgumentException("a streaming dataset (" + name + ") has no indices to sample: expected"
                        + " no shuffle, sampler or batchSampler, but got " + got + "; shuffle inside the dataset instead");
            }
            if (persistentWorkers && numWorkers == 0) {
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
            if (dataset != null && worldSize > 1) {
                throw new IllegalArgumentException("rank and worldSize shard a streaming dataset; shard a map-style"
                        + " dataset (" + name + ") with a DistributedSampler passed to sampler(...)");
            }
        }
    }
}
