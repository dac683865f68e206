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
}
