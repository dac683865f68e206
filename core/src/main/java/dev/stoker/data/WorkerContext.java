package dev.stoker.data;

/**
 * Where a worker stands: which worker of how many, on which rank of how many, in which epoch,
 * under which seed. A {@link StreamingDataset} uses it to pick its share of the shards.
 *
 * <pre>{@code
 * WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, 42);  // the only worker of a single process
 * long globalWorker = ctx.globalWorkerId();                   // rank * numWorkers + workerId
 * }</pre>
 *
 * @param workerId   this worker, in {@code [0, numWorkers)}
 * @param numWorkers workers in this process (at least 1: the caller's thread counts as one)
 * @param rank       this process, in {@code [0, worldSize)}
 * @param worldSize  processes in the job
 * @param epoch      the epoch being read
 * @param seed       the loader's seed
 */
public record WorkerContext(int workerId, int numWorkers, int rank, int worldSize, long epoch, long seed) {
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
}
