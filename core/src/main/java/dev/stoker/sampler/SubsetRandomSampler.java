package dev.stoker.sampler;

import java.util.PrimitiveIterator;

/**
 * Yields the given indices in an order shuffled anew each epoch, like PyTorch's
 * {@code SubsetRandomSampler}: position {@code p} of epoch {@code e} yields
 * {@code indices[FeistelPermutation.of(indices.length, seed, e).apply(p)]}.
 *
 * <pre>{@code
 * long[] validation = {3, 14, 15, 92, 65};
 * Sampler s = new SubsetRandomSampler(validation, 42);
 * s.iterator(0);   // the five indices, each once, in a seeded random order
 * }</pre>
 */
public final class SubsetRandomSampler implements Sampler {
    private final long[] indices;
    private final long seed;

    /**
     * @param indices dataset indices, each {@code >= 0}; copied
     * @throws IllegalArgumentException for a negative index
     */
    public SubsetRandomSampler(long[] indices, long seed) {
        this.indices = indices.clone();
        for (int i = 0; i < this.indices.length; i++) {
            if (this.indices[i] < 0) {
                throw new IllegalArgumentException("indices[" + i + "] is " + this.indices[i]
                        + "; dataset indices must be >= 0");
            }
        }
        this.seed = seed;
    }

    @Override
    public long size() {
        return indices.length;
    }

    /** A copy of the indices, in the order given. */
    public long[] indices() {
        return indices.clone();
    }

    public long seed() {
        return seed;
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        FeistelPermutation permutation = FeistelPermutation.of(indices.length, seed, epoch);
        return new IndexIterator(indices.length, p -> indices[(int) permutation.apply(p)]);
    }

    @Override
    public String toString() {
        return "SubsetRandomSampler[size=" + indices.length + ", seed=" + seed + "]";
    }
}
