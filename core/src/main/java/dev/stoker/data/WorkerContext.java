package dev.stoker.data;

import dev.stoker.random.Seeds;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Where a worker stands: which worker of how many, on which rank of how many, in which epoch,
 * under which seed. A {@link StreamingDataset} uses it to pick its share of the shards.
 *
 * <pre>{@code
 * WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, 42);  // the only worker of a single process
 * long globalWorker = ctx.globalWorkerId();                   // rank * numWorkers + workerId
 * }</pre>
 *
 * <h2>Random transforms</h2>
 * Inside a fetch ({@code Dataset.get}, {@code getBatch}, {@code StreamingDataset.open} and the
 * stream it returns, the loader's {@code workerInit} hook), {@link #current()} is the context of
 * the worker doing it and {@link #currentRandom()} a generator, {@code new SplittableRandom(s)},
 * keyed on what is being made, so that the draws never depend on timing, are the same after a
 * resume, and never repeat across the batches, workers and ranks of the job:
 * <ul>
 *   <li>the fetches of batch {@code b} of a map-style epoch: {@code s = }{@link #batchRandomSeed
 *       batchRandomSeed(b)}{@code  = Seeds.mix(seed, epoch, RANDOM_STREAM, rank, b)}, the same
 *       whichever worker makes the batch, so the same for any number of workers;
 *   <li>the samples a streaming worker reads for its {@code k}-th batch:
 *       {@code s = }{@link #streamRandomSeed streamRandomSeed(k)}{@code  = Seeds.mix(randomSeed(), k)};
 *   <li>{@code workerInit} and {@code StreamingDataset.open}: {@code s = }{@link #randomSeed()}
 *       {@code  = Seeds.mix(seed, epoch, RANDOM_STREAM, globalWorkerId())}.
 * </ul>
 * ({@link Seeds#mix}; the {@code n}-th {@code nextLong()} of the generator is
 * {@code Seeds.splitMix(s, n)}.) With the loader's I/O concurrency the samples of a batch are
 * fetched at once on several threads; each fetch then has a generator of its own,
 * {@code Seeds.mix(s, index)} for the sample at {@code index}. With no workers the caller's
 * thread is worker 0 of 1.
 *
 * <pre>{@code
 * public Image get(long i) {
 *     Image img = read(i);
 *     return WorkerContext.currentRandom().nextBoolean() ? img.flipped() : img;
 * }
 * }</pre>
 *
 * <p>NOTE: a draw depends on the batch a sample is in, so a user sampler that moves a sample to
 * another batch changes its draws; transforms that key their draws on the sample index itself
 * (as the vision module's do) stay the same across world sizes too.
 *
 * @param workerId   this worker, in {@code [0, numWorkers)}
 * @param numWorkers workers in this process (at least 1: the caller's thread counts as one)
 * @param rank       this process, in {@code [0, worldSize)}
 * @param worldSize  processes in the job
 * @param epoch      the epoch being read
 * @param seed       the loader's seed
 */
public record WorkerContext(int workerId, int numWorkers, int rank, int worldSize, long epoch, long seed) {
    /** The word that keeps worker generators apart from the other streams drawn from (seed, epoch). */
    public static final long RANDOM_STREAM = 0x776F_726B_6572_5247L; // "workerRG"

    public WorkerContext {
        if (numWorkers < 1 || workerId < 0 || workerId >= numWorkers) {
            throw new IllegalArgumentException("worker " + workerId + " of " + numWorkers + " workers");
        }
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " of a world of " + worldSize);
        }
    }

    /** This worker's position among all workers of all ranks. */
    public int globalWorkerId() {
        return rank * numWorkers + workerId;
    }

    /** All workers of all ranks. */
    public int globalWorkers() {
        return worldSize * numWorkers;
    }

    /** The seed of this worker's own generator for this epoch (workerInit, opening a stream); see the class comment. */
    public long randomSeed() {
        return Seeds.mix(seed, epoch, RANDOM_STREAM, globalWorkerId());
    }

    /** The seed of the generator for batch {@code batch} of a map-style epoch on this rank; see the class comment. */
    public long batchRandomSeed(long batch) {
        return Seeds.mix(seed, epoch, RANDOM_STREAM, rank, batch);
    }

    /** The seed of the generator for this streaming worker's {@code k}-th batch (from 0); see the class comment. */
    public long streamRandomSeed(long k) {
        return Seeds.mix(randomSeed(), k);
    }

    /** The context of the worker running the calling code, inside a loader's fetch; empty elsewhere. */
    public static Optional<WorkerContext> current() {
        return WorkerScope.context();
    }

    /**
     * The generator for what the calling code is fetching, inside a loader's fetch (see the class
     * comment for its seed).
     *
     * @throws IllegalStateException outside a loader's fetch
     */
    public static RandomGenerator currentRandom() {
        return WorkerScope.random();
    }

    /**
     * The seed {@link #currentRandom()} was made from, to key further generators on it.
     *
     * @throws IllegalStateException outside a loader's fetch
     */
    public static long currentRandomSeed() {
        return WorkerScope.seed();
    }
}
