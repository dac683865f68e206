package dev.stoker.sampler;

import java.util.PrimitiveIterator;

/**
 * The share of one replica (rank) of a dataset split across {@code numReplicas} processes, with
 * exactly the semantics of PyTorch's {@code DistributedSampler}:
 * <ul>
 *   <li>{@code numSamples = dropLast && n % numReplicas != 0 ? ceil((n - numReplicas) / numReplicas)
 *       : ceil(n / numReplicas)} (the first is {@code floor(n / numReplicas)}), and
 *       {@code totalSize = numSamples * numReplicas};
 *   <li>the epoch's list is {@code 0..n-1}, or its shuffle, padded to {@code totalSize} by
 *       repeating it from the start as often as needed, or truncated to {@code totalSize} with
 *       {@code dropLast};
 *   <li>the rank takes {@code list[rank : totalSize : numReplicas]}.
 * </ul>
 * Without shuffling the indices equal PyTorch's. With shuffling the list is
 * {@code FeistelPermutation.of(n, seed, epoch)}, so the order is a pure function of
 * (n, seed, epoch, rank, numReplicas, dropLast), and with one replica it is exactly
 * {@code RandomSampler.of(n, seed)}'s; PyTorch's own shuffle ({@code randperm} seeded with
 * {@code seed + epoch}) cannot be reproduced outside Torch. Nothing of size n is built:
 * list position {@code q} is {@code q mod n} (the padding), mapped through the permutation.
 *
 * <p>As in PyTorch all ranks must use the same seed, or their shares will overlap.
 *
 * <pre>{@code
 * DistributedSampler s = DistributedSampler.builder(10).numReplicas(3).rank(1).shuffle(false).build();
 * s.iterator(0);        // 1, 4, 7, 0
 * s.setEpoch(5);        // as in PyTorch; then s.iterator() shuffles for epoch 5
 * }</pre>
 */
public final class DistributedSampler implements Sampler {
    private final long datasetSize;
    private final int numReplicas;
    private final int rank;
    private final boolean shuffle;
    private final long seed;
    private final boolean dropLast;
    private final long numSamples;
    private final long totalSize;
    private final ReplicaSplit split;
    private volatile long epoch;

    private DistributedSampler(Builder b) {
        if (b.datasetSize < 0) {
            throw new IllegalArgumentException("datasetSize must be >= 0, got " + b.datasetSize);
        }
        this.split = new ReplicaSplit(b.numReplicas, b.rank, b.dropLast);
        this.datasetSize = b.datasetSize;
        this.numReplicas = b.numReplicas;
        this.rank = b.rank;
        this.shuffle = b.shuffle;
        this.seed = b.seed;
        this.dropLast = b.dropLast;
        this.numSamples = split.perReplica(b.datasetSize);
        this.totalSize = Math.multiplyExact(numSamples, (long) numReplicas);
    }

    /** A builder over a dataset of {@code datasetSize} samples: 1 replica, rank 0, shuffled, seed 0, no dropLast. */
    public static Builder builder(long datasetSize) {
        return new Builder(datasetSize);
    }

    /** Indices this rank yields per epoch: PyTorch's {@code num_samples}. */
    @Override
    public long size() {
        return numSamples;
    }

    /** Indices all ranks yield together per epoch, padding included: PyTorch's {@code total_size}. */
    public long totalSize() {
        return totalSize;
    }

    public long datasetSize() {
        return datasetSize;
    }

    public int numReplicas() {
        return numReplicas;
    }

    @Override
    public int rank() {
        return rank;
    }

    /** {@link #numReplicas()}: the number of ranks the dataset is split across. */
    @Override
    public int worldSize() {
        return numReplicas;
    }

    public boolean shuffle() {
        return shuffle;
    }

    public long seed() {
        return seed;
    }

    public boolean dropLast() {
        return dropLast;
    }

    /** Stores the epoch that {@link #iterator()} uses, like PyTorch's {@code set_epoch}. */
    public void setEpoch(long epoch) {
        this.epoch = epoch;
    }

    /** The epoch last given to {@link #setEpoch}, 0 at first. */
    public long epoch() {
        return epoch;
    }

    /** The indices of the epoch stored by {@link #setEpoch}. */
    public PrimitiveIterator.OfLong iterator() {
        return iterator(epoch);
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        long n = datasetSize;
        if (!shuffle) {
            return new IndexIterator(numSamples, j -> split.position(j, n));
        }
        FeistelPermutation permutation = FeistelPermutation.of(n, seed, epoch);
        return new IndexIterator(numSamples, j -> permutation.apply(split.position(j, n)));
    }

    @Override
    public String toString() {
        return "DistributedSampler[datasetSize=" + datasetSize + ", numReplicas=" + numReplicas + ", rank=" + rank
                + ", shuffle=" + shuffle + ", seed=" + seed + ", dropLast=" + dropLast + "]";
    }

    /** Settings of a {@link DistributedSampler}; see {@link DistributedSampler#builder}. */
    public static final class Builder {
        private final long datasetSize;
        private int numReplicas = 1;
        private int rank;
        private boolean shuffle = true;
        private long seed;
        private boolean dropLast;

        private Builder(long datasetSize) {
            this.datasetSize = datasetSize;
        }

        /** The number of processes sharing the dataset (PyTorch's world size); default 1. */
        public Builder numReplicas(int numReplicas) {
            this.numReplicas = numReplicas;
            return this;
        }

        /** This process's rank, in {@code [0, numReplicas)}; default 0. */
        public Builder rank(int rank) {
            this.rank = rank;
            return this;
        }

        /** Whether to shuffle each epoch; default true. */
        public Builder shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /** The shuffle's seed, the same on every rank; default 0. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Drop the tail instead of padding so that every rank gets the same count; default false. */
        public Builder dropLast(boolean dropLast) {
            this.dropLast = dropLast;
            return this;
        }

        /** @throws IllegalArgumentException for a negative size, numReplicas below 1 or a rank out of range */
        public DistributedSampler build() {
            return new DistributedSampler(this);
        }
    }
}
