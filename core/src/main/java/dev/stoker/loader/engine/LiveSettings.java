package dev.stoker.loader.engine;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The parallelism and prefetch depth a {@link WorkerEngine} runs at now, which an autotuner may
 * change between any two batches.
 *
 * <p>A tuned engine has a fixed number of <em>lanes</em> (its worker threads: batch {@code k}
 * is made by lane {@code k % lanes}, a streaming lane reads its own stream), so what a batch
 * holds never depends on the tuning. What changes is how many lanes may make a batch at once
 * ({@link #workers()}, a fair {@link Throttle}) and how many batches may be made ahead
 * ({@link #prefetch()}: per lane, and for map-style passes {@code workers x prefetch} in all,
 * by position, see {@link ResultBoard}). In the I/O mode it also sets how many samples are
 * fetched at once ({@link #ioConcurrency()}, an {@link IoLimit}). Timing changes; the batches,
 * their order and the loader's state do not.
 *
 * <p>The consumer's side ({@link #taken}) counts the batches taken and the time waited for
 * them, and every so often hands the window to the {@link Tuner}: the controller runs on that
 * tick, not per batch or sample.
 */
public final class LiveSettings {
    /** What decides the settings: called on the consumer's thread, after a batch was taken. */
    public interface Tuner {
        /** Fewest batches between two ticks. */
        int everyBatches();

        /** Shortest window between two ticks, in nanoseconds. */
        long everyNanos();

        /**
         * One window of the consumer's view.
         *
         * @param live        the settings to change ({@link #apply})
         * @param taken       batches taken since the loader was built (all passes)
         * @param batches     batches taken in this window
         * @param waitNanos   time the consumer spent waiting for them
         * @param windowNanos length of the window
         */
        void tick(LiveSettings live, long taken, long batches, long waitNanos, long windowNanos);
    }

    private final int lanes;
    private final int fewest; // 0 where the consumer's thread may make the batches itself, else 1
    private final Tuner tuner; // null: fixed settings
    private final Throttle throttle; // null: fixed settings
    private final Set<ResultBoard> boards = ConcurrentHashMap.newKeySet();
    private final IoLimit io; // null: no I/O mode, or fixed settings
    private final int ioMost; // the I/O mode's configured ioConcurrency: the most the tuner may set
    private volatile IntSupplier streamWindow = () -> Integer.MAX_VALUE;
    private volatile int workers;
    private volatile int prefetch;
    // the consumer's window: its thread alone
    private long taken;
    private long windowBatches;
    private long windowWait;
    private long windowStart;

    private LiveSettings(int lanes, int fewest, int workers, int prefetch, Tuner tuner, IoLimit io, int ioStart) {
        if (lanes < 1 || workers < fewest || workers > lanes || prefetch < 1) {
            throw new IllegalArgumentException("live settings need " + fewest + " <= workers <= lanes and prefetch >= 1,"
                    + " not " + workers + " of " + lanes + " lanes, prefetch " + prefetch);
        }
        this.io = io;
        this.ioMost = io == null ? 0 : io.size();
        if (io != null) {
            io.resize(Math.clamp(ioStart, 1, ioMost));
        }
        this.lanes = lanes;
        this.fewest = fewest;
        this.workers = workers;
        this.prefetch = prefetch;
        this.tuner = tuner;
        this.throttle = tuner == null ? null : new Throttle(workers);
    }

    /** Settings that never change: {@code workers} threads, each {@code prefetch} batches ahead. */
    public static LiveSettings fixed(int workers, int prefetch) {
        return new LiveSettings(workers, 1, workers, prefetch, null, null, 0);
    }

    /**
     * Settings that {@code tuner} changes, over {@code lanes} worker threads, starting at the given
     * values; with {@code consumerMayMake} the workers may be 0 (the consumer's thread then makes
     * each batch it waits for: a map-style pass in order only).
     */
    public static LiveSettings tuned(int lanes, int workers, int prefetch, Tuner tuner, boolean consumerMayMake) {
        return tuned(lanes, workers, prefetch, tuner, consumerMayMake, null, 0);
    }

    /**
     * Tuned settings that also set the I/O mode's fetches at once: {@code io} (its size now is the
     * most the tuner may set) starts at {@code ioStart}, clamped to {@code 1..}that most; a null
     * {@code io} is no I/O mode.
     */
    public static LiveSettings tuned(int lanes, int workers, int prefetch, Tuner tuner, boolean consumerMayMake,
                                     IoLimit io, int ioStart) {
        if (tuner == null) {
            throw new IllegalArgumentException("tuned settings need a tuner");
        }
        return new LiveSettings(lanes, consumerMayMake ? 0 : 1, workers, prefetch, tuner, io, ioStart);
    }

    /** Whether the workers may be 0, the consumer's thread making the batches (see {@link #tuned}). */
    public boolean consumerMayMake() {
        return fewest == 0;
    }

    /** Worker threads (lanes): what decides the batches of a stream and which thread makes which batch. */
    public int lanes() {
        return lanes;
    }

    /** Lanes that may make a batch at once. */
    public int workers() {
        return workers;
    }

    /** Batches each lane may have made ahead of the consumer. */
    public int prefetch() {
        return prefetch;
    }

    /** Fetches at once of the I/O mode now; 0 where the tuner does not set them (no I/O mode, or fixed settings). */
    public int ioConcurrency() {
        return io == null ? 0 : io.size();
    }

    /** The most fetches at once the tuner may set: the loader's {@code ioConcurrency}; 0 without the I/O mode. */
    public int ioMost() {
        return ioMost;
    }

    /** Whether a tuner changes these settings. */
    public boolean tuned() {
        return tuner != null;
    }

    /** Batches taken by the consumer since the loader was built. Consumer's thread. */
    public long taken() {
        return taken;
    }

    /**
     * Sets the workers and prefetch depth, clamped to {@code 1..lanes} (or {@code 0..lanes} where
     * the consumer may make the batches) and {@code >= 1}; takes effect for the next batch a worker
     * starts.
     */
    public synchronized void apply(int newWorkers, int newPrefetch) {
        apply(newWorkers, newPrefetch, 0);
    }

    /**
     * As {@link #apply(int, int)}, and the I/O mode's fetches at once, clamped to
     * {@code 1..}{@link #ioMost()} (0 keeps them; ignored without the I/O mode): fetches under way
     * finish, so fewer take effect as they end. Never blocks.
     */
    public synchronized void apply(int newWorkers, int newPrefetch, int newIo) {
        if (tuner == null) {
            throw new IllegalStateException("these settings are fixed");
        }
        int w = Math.clamp(newWorkers, fewest, lanes);
        int p = Math.max(1, newPrefetch);
        if (io != null && newIo > 0) {
            io.resize(Math.min(newIo, ioMost));
        }
        throttle.resize(w);
        workers = w;
        prefetch = p;
        boards.forEach(ResultBoard::wake); // more room may let a waiting worker start
    }

    /**
     * Bounds the batches a streaming pass's lanes hold at once (made or being made, not yet taken)
     * by {@code batches}, asked each time a lane would start one: the most that fit the memory
     * budget beside the consumer's, or 0 while a batch's bytes are not known (then one at a time,
     * in turn, until the first batch is made), or {@link Integer#MAX_VALUE} for no bound. Taken
     * in turn order, so the batch the consumer waits for is always among them ({@link ResultBoard}).
     * Tuned settings only; set before the first pass.
     */
    public void boundStreamBatches(IntSupplier batches) {
        if (tuner == null) {
            throw new IllegalStateException("these settings are fixed");
        }
        this.streamWindow = batches;
    }

    /** The batches a streaming pass's lanes may hold at once now (see {@link #boundStreamBatches}); 0 unknown. */
    int streamWindow() {
        return streamWindow.getAsInt();
    }

    /** Batches a map-style pass may have made or be making ahead of the consumer, in all. */
    int window() {
        return tuner == null ? Integer.MAX_VALUE : Math.multiplyExact(workers, prefetch);
    }

    /** How often a worker waiting for a permit looks whether its batch is still to make (see below). */
    private static final long GONE_CHECK_NANOS = 10_000_000;

    /** Waits for a permit to make a batch (tuned settings only). */
    void beforeMake() throws InterruptedException {
        if (throttle != null) {
            throttle.acquire();
        }
    }

    /**
     * Waits for a permit to make a batch (tuned settings only), or until {@code gone} says the
     * batch was made elsewhere (the consumer's thread, at 0 workers): a worker that waits for a
     * permit while the count is 0 would otherwise wait past the pass's end. Looks every 10 ms
     * while it waits; a free permit is taken at once, as {@link #beforeMake()} takes it.
     *
     * @return false, holding no permit, when the batch is gone
     */
    boolean beforeMake(BooleanSupplier gone) throws InterruptedException {
        if (throttle == null) {
            return true;
        }
        while (!throttle.tryAcquire(GONE_CHECK_NANOS, TimeUnit.NANOSECONDS)) {
            if (gone.getAsBoolean()) {
                return false;
            }
        }
        return true;
    }

    /** Gives back the permit {@link #beforeMake} took. */
    void afterMake() {
        if (throttle != null) {
            throttle.release();
        }
    }

    void attach(ResultBoard board) {
        boards.add(board);
    }

    void detach(ResultBoard board) {
        boards.remove(board);
    }

    /**
     * The consumer took a batch (or its failure) after waiting {@code waitNanos}, at {@code now};
     * runs the tuner when the window is long enough. Consumer's thread; two additions per batch
     * and a comparison, the tuner a few times a second at most.
     *
     * @param passStart whether it is the pass's first: its wait is the pass starting (workers
     *                  starting, shuffle buffers filling), which no worker or prefetch more
     *                  hides, so it is left out of the window (a tuner that ticks every batch,
     *                  {@code everyBatches() == 0}, still ticks). Counted, a
     *                  short epoch's start read as 40-80% of a 4-batch window's time waited, and
     *                  the tuner added lanes and prefetch at every epoch for nothing (W3, 32
     *                  batches an epoch: up to every lane at prefetch 4 where 2 workers fed it)
     */
    void taken(long waitNanos, long now, boolean passStart) {
        taken++;
        if (tuner == null) {
            return;
        }
        if (passStart) {
            // neither its batch nor its wait counts, and the window's length leaves that wait out; the
            // window goes on, so that a loader of a few batches an epoch is still tuned
            windowStart = windowStart == 0 ? now : windowStart + waitNanos;
        } else {
            if (windowStart == 0) {
                windowStart = now - waitNanos;
            }
            windowBatches++;
            windowWait += waitNanos;
        }
        long length = now - windowStart;
        if (windowBatches >= tuner.everyBatches() && length >= tuner.everyNanos()) {
            long batches = windowBatches;
            long wait = windowWait;
            windowBatches = 0;
            windowWait = 0;
            windowStart = now;
            tuner.tick(this, taken, batches, wait, length);
        }
    }
}
