package dev.stoker.sampler;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;
import java.util.PrimitiveIterator;

/**
 * Batches for data-parallel training whose global order does not depend on the number of ranks,
 * so that a job can stop with one world size and go on with another in the middle of an epoch.
 *
 * <p>The epoch is one order of the whole dataset ({@link FeistelPermutation#of(long, long, long)}
 * of (seed, epoch), or sequential without shuffle) cut into global batches of
 * {@code globalBatchSize}. Rank {@code r} of {@code w} takes the {@code r}-th of {@code w}
 * contiguous slices of each global batch, the first {@code globalBatchSize % w} slices one sample
 * longer. Every rank therefore has the same number of batches, global batch {@code g} is batch
 * {@code g} on every rank whatever {@code w} is, and a loader state saved at batch {@code g}
 * (the same on every rank in synchronous training) restores on any world size with each remaining
 * sample of the epoch delivered exactly once across the ranks. Unlike {@link DistributedSampler}
 * nothing is padded: the last global batch is shorter unless {@code dropLast}.
 *
 * <pre>{@code
 * BatchSampler mine = new ElasticBatchSampler(1_000_000, 512, true, 42, false, rank, worldSize);
 * DataLoader<Sample> loader = DataLoader.builder(dataset).batchSampler(mine).seed(42).build();
 * }</pre>
 *
 * <p>The global order may also be any {@link Sampler}'s ({@link #over}), for instance a
 * {@link BlockShuffleSampler} whose blocks are the shards of an indexed tar dataset: then the job
 * reads a few shards at a time, as a streaming reader would, and still resumes on any number of
 * ranks and workers (MosaicML Streaming's model).
 */
public final class ElasticBatchSampler implements BatchSampler {
    private final long datasetSize;
    private final int globalBatchSize;
    private final boolean shuffle;
    private final long seed;
    private final boolean dropLast;
    private final int rank;
    private final int worldSize;
    private final Sampler order; // the global order, or null for (seed, epoch)'s Feistel permutation or 0, 1, ...

    /**
     * @throws IllegalArgumentException for a rank outside the world, or a global batch smaller
     *     than the world (some rank would get nothing)
     */
    public ElasticBatchSampler(long datasetSize, int globalBatchSize, boolean shuffle, long seed, boolean dropLast,
                               int rank, int worldSize) {
        this(datasetSize, globalBatchSize, shuffle, seed, dropLast, rank, worldSize, null);
    }

    private ElasticBatchSampler(long datasetSize, int globalBatchSize, boolean shuffle, long seed, boolean dropLast,
                                int rank, int worldSize, Sampler order) {
        if (datasetSize < 0) {
            throw new IllegalArgumentException("a dataset size is 0 or more, not " + datasetSize);
        }
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " of a world of " + worldSize);
        }
        if (globalBatchSize < worldSize) {
            throw new IllegalArgumentException("a global batch of " + globalBatchSize
                    + " cannot give each of " + worldSize + " ranks a sample");
        }
        this.datasetSize = datasetSize;
        this.globalBatchSize = globalBatchSize;
        this.shuffle = shuffle;
        this.seed = seed;
        this.dropLast = dropLast;
        this.rank = rank;
        this.worldSize = worldSize;
        this.order = order;
    }

    /**
     * Global batches of {@code globalBatchSize} cut from {@code order}'s indices, in its order, split
     * across the ranks as the class comment says. The order must not depend on the rank or the
     * world size (no {@link DistributedSampler}).
     *
     * <pre>{@code
     * // shards of 1000 samples, 8 open at a time, global batches of 512 on any number of ranks
     * Sampler shardLocal = new BlockShuffleSampler(tars.size(), 1000, 8, 42);
     * BatchSampler mine = ElasticBatchSampler.over(shardLocal, 512, false, rank, worldSize);
     * }</pre>
     */
    public static ElasticBatchSampler over(Sampler order, int globalBatchSize, boolean dropLast, int rank,
                                           int worldSize) {
        return new ElasticBatchSampler(Objects.requireNonNull(order, "order").size(), globalBatchSize, false, 0,
                dropLast, rank, worldSize, order);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int worldSize() {
        return worldSize;
    }

    /** True: a state taken at global batch {@code g} restores on any rank of any world size (see the class comment). */
    @Override
    public boolean elastic() {
        return true;
    }

    @Override
    public long size() {
        return dropLast ? datasetSize / globalBatchSize : Math.ceilDiv(datasetSize, (long) globalBatchSize);
    }

    /** Where rank {@code r}'s slice of a global batch of {@code n} samples starts. */
    private long sliceStart(long n, int r) {
        return r * (n / worldSize) + Math.min(r, n % worldSize);
    }

    /** Rank {@code rank}'s part, positions {@code [from, to)}, of the global batch of {@code n} from {@code start}. */
    @FunctionalInterface
    private interface Slicer {
        long[] slice(long start, int n, int from, int to);
    }

    @Override
    public Iterator<long[]> iterator(long epoch) {
        if (this.order != null) { // read each global batch of the sampler's order, keep this rank's part
            PrimitiveIterator.OfLong indices = this.order.iterator(epoch);
            long[] global = new long[globalBatchSize];
            return batches((start, n, from, to) -> {
                for (int i = 0; i < n; i++) {
                    global[i] = indices.nextLong();
                }
                return Arrays.copyOfRange(global, from, to);
            });
        }
        // compute only this rank's part: position p of the epoch is order.apply(p), or p unshuffled
        FeistelPermutation order = shuffle && datasetSize > 0 ? FeistelPermutation.of(datasetSize, seed, epoch) : null;
        return batches((start, n, from, to) -> {
            long[] out = new long[to - from];
            for (int i = 0; i < out.length; i++) {
                long p = start + from + i;
                out[i] = order == null ? p : order.apply(p);
            }
            return out;
        });
    }

    private Iterator<long[]> batches(Slicer slicer) {
        return new BatchPositions(size(), g -> {
            long start = g * globalBatchSize;
            int n = (int) Math.min(globalBatchSize, datasetSize - start);
            return slicer.slice(start, n, (int) sliceStart(n, rank), (int) sliceStart(n, rank + 1));
        });
    }

    @Override
    public String toString() {
        if (order != null) {
            return "ElasticBatchSampler(global batch " + globalBatchSize + " of " + order + ", rank " + rank + " of "
                    + worldSize + (dropLast ? ", drop last" : "") + ")";
        }
        return "ElasticBatchSampler(" + datasetSize + " samples, global batch " + globalBatchSize + ", rank " + rank
                + " of " + worldSize + (shuffle ? ", shuffled, seed " + seed : "") + (dropLast ? ", drop last" : "")
                + ")";
    }
}
