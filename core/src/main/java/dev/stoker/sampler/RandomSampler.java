package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import java.util.PrimitiveIterator;
import java.util.function.LongUnaryOperator;

/**
 * Yields dataset indices in random order, like PyTorch's {@code RandomSampler}, reproducibly: the
 * order is a pure function of (dataset size, number of samples, replacement, seed, epoch).
 *
 * <p>Without replacement the epoch is a series of passes, as in PyTorch: {@code numSamples / n}
 * full permutations of {@code [0, n)}, then the first {@code numSamples % n} positions of one
 * more. Pass {@code p} is the {@link FeistelPermutation} with key {@code mix(seed, epoch, p)}
 * (SplitMix64-based, see {@link Seeds}); pass 0 is {@code FeistelPermutation.of(n, seed, epoch)}.
 *
 * <p>With replacement draw {@code i} is {@code below(splitMix(mix(seed, epoch), i), n)}: output
 * {@code i} of a SplitMix64 stream seeded from (seed, epoch), mapped to {@code [0, n)} without
 * bias by Lemire's method.
 *
 * <pre>{@code
 * Sampler shuffled = RandomSampler.of(50_000, 42);
 * Sampler bootstrap = RandomSampler.builder(50_000).replacement(true).numSamples(10_000).seed(7).build();
 * }</pre>
 */
public final class RandomSampler implements Sampler {
    private final long datasetSize;
    private final long numSamples;
    private final boolean replacement;
    private final long seed;

    private RandomSampler(Builder b) {
        if (b.datasetSize < 0) {
            throw new IllegalArgumentException("datasetSize must be >= 0, got " + b.datasetSize);
        }
        long count = b.numSamplesSet ? b.numSamples : b.datasetSize;
        if (count < 0) {
            throw new IllegalArgumentException("numSamples must be >= 0, got " + count);
        }
        if (count > 0 && b.datasetSize == 0) {
            throw new IllegalArgumentException("cannot draw " + count + " samples from an empty dataset");
        }
        this.datasetSize = b.datasetSize;
        this.numSamples = count;
        this.replacement = b.replacement;
        this.seed = b.seed;
    }

    /** All {@code n} indices in an order shuffled anew each epoch. */
    public static RandomSampler of(long n, long seed) {
        return builder(n).seed(seed).build();
    }

    /** A builder over a dataset of {@code datasetSize} samples: no replacement, {@code numSamples = datasetSize}, seed 0. */
    public static Builder builder(long datasetSize) {
        return new Builder(datasetSize);
    }

    /** The number of indices per epoch: {@code numSamples}. */
    @Override
    public long size() {
        return numSamples;
    }

    public long datasetSize() {
        return datasetSize;
    }

    public boolean replacement() {
        return replacement;
    }

    public long seed() {
        return seed;
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        if (replacement) {
            long stream = Seeds.mix(seed, epoch);
            long n = datasetSize;
            return new IndexIterator(numSamples, i -> Seeds.below(Seeds.splitMix(stream, i), n));
        }
        return new IndexIterator(numSamples, new Passes(datasetSize, seed, epoch));
    }

    /** Position to index through one permutation per pass, keeping the current pass's. */
    private static final class Passes implements LongUnaryOperator {
        private final long n;
        private final long seed;
        private final long epoch;
        private long pass = -1;
        private FeistelPermutation permutation;

        Passes(long n, long seed, long epoch) {
            this.n = n;
            this.seed = seed;
            this.epoch = epoch;
        }

        @Override
        public long applyAsLong(long position) {
            long p = position / n;
            if (p != pass) {
                pass = p;
                permutation = new FeistelPermutation(n, Seeds.mix(seed, epoch, p));
            }
            return permutation.apply(position - p * n);
        }
    }

    @Override
    public String toString() {
        return "RandomSampler[datasetSize=" + datasetSize + ", numSamples=" + numSamples
                + ", replacement=" + replacement + ", seed=" + seed + "]";
    }

    /** Settings of a {@link RandomSampler}; see {@link RandomSampler#builder}. */
    public static final class Builder {
        private final long datasetSize;
        private long numSamples;
        private boolean numSamplesSet;
        private boolean replacement;
        private long seed;

        private Builder(long datasetSize) {
            this.datasetSize = datasetSize;
        }

        /** Draw with replacement (any {@code numSamples}) or not (default). */
        public Builder replacement(boolean replacement) {
            this.replacement = replacement;
            return this;
        }

        /**
         * Indices per epoch; defaults to the dataset size. Without replacement, more than the
         * dataset size wraps into further permutations, as PyTorch does.
         */
        public Builder numSamples(long numSamples) {
            this.numSamples = numSamples;
            this.numSamplesSet = true;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** @throws IllegalArgumentException for a negative size or count, or samples from an empty dataset */
        public RandomSampler build() {
            return new RandomSampler(this);
        }
    }
}
