package dev.stoker.data;

import dev.stoker.random.Seeds;
import java.util.Optional;
import java.util.SplittableRandom;
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
 * the worker doing it and {@link #currentRandom()} that worker's generator for the epoch:
 * {@code new SplittableRandom(randomSeed())}, where
 * <pre>
 * randomSeed() = Seeds.mix(seed, epoch, RANDOM_STREAM, globalWorkerId())
 * </pre>
 * ({@link Seeds#mix}; its {@code n}-th {@code nextLong()} is {@code Seeds.splitMix(randomSeed(), n)}).
 * So a random transform drawn from it is reproducible (same seed, epoch and worker count: same
 * draws), differs from epoch to epoch, and never repeats across the workers of the job.
 *
 * <pre>{@code
 * public Image get(long i) {
 *     Image img = read(i);
 *     return WorkerContext.currentRandom().nextBoolean() ? img.flipped() : img;
 * }
 * }</pre>
 *
 * <p>NOTE: which samples form which batch never depends on the number of workers, but which
 * worker fetches a sample does (batch {@code k} goes to worker {@code k % numWorkers}), so the
 * random draws a sample gets change with the worker count, as in PyTorch. With the loader's
 * I/O concurrency the samples of a batch are fetched at once on several threads; each fetch
 * then has a generator of its own, {@code new SplittableRandom(Seeds.mix(randomSeed(), index))}
 * for the sample at {@code index}. With no workers the caller's thread is worker 0 of 1.
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

    /** The seed of this worker's generator for this epoch; see the class comment for the formula. */
    public long randomSeed() {
        return Seeds.mix(seed, epoch, RANDOM_STREAM, globalWorkerId());
    }

    /** A new generator at the start of this worker's stream for this epoch: {@code new SplittableRandom(randomSeed())}. */
    public SplittableRandom newRandom() {
        return new SplittableRandom(randomSeed());
    }

    /** The context of the worker running the calling code, inside a loader's fetch; empty elsewhere. */
    public static Optional<WorkerContext> current() {
        return WorkerScope.context();
    }

    /**
     * The generator of the worker running the calling code, inside a loader's fetch (see the class
     * comment); one per worker and epoch, shared by that worker's fetches, which come one at a time.
     *
     * @throws IllegalStateException outside a loader's fetch
     */
    public static RandomGenerator currentRandom() {
        return WorkerScope.random();
    }
}
