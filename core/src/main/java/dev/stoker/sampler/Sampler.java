package dev.stoker.sampler;

import java.util.PrimitiveIterator;

/**
 * Yields the dataset indices of one epoch, like PyTorch's {@code Sampler}. Implementations here are
 * immutable: the order is a pure function of the sampler's settings and the epoch, so an epoch
 * can be replayed (or resumed) by asking for the same epoch again.
 *
 * <pre>{@code
 * Sampler s = RandomSampler.of(1_000_000, 42);
 * PrimitiveIterator.OfLong it = s.iterator(3);   // epoch 3
 * while (it.hasNext()) {
 *     long index = it.nextLong();
 * }
 * }</pre>
 */
public interface Sampler {

    /** The number of indices one epoch yields: PyTorch's {@code len(sampler)}. */
    long size();

    /**
     * The indices of {@code epoch}, a pure function of this sampler's settings and the epoch. Each
     * call returns a fresh iterator; an iterator is for one thread.
     */
    PrimitiveIterator.OfLong iterator(long epoch);

    /**
     * The rank whose share of the dataset this sampler yields, of {@link #worldSize()}: 0 unless
     * it splits the dataset across ranks ({@link DistributedSampler}). A loader records it in its
     * state, so that a state is not restored on another rank's share.
     */
    default int rank() {
        return 0;
    }

    /** The number of ranks the dataset is split across: 1 unless this sampler splits it (see {@link #rank()}). */
    default int worldSize() {
        return 1;
    }
}
