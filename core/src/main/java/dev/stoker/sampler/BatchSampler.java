package dev.stoker.sampler;

import java.util.Iterator;

/**
 * Yields the index batches of one epoch, like PyTorch's {@code BatchSampler}. Each batch is a
 * fresh array that the caller may keep.
 *
 * <pre>{@code
 * BatchSampler batches = BatchSampler.of(new SequentialSampler(10), 3, false);
 * batches.size();                         // 4
 * Iterator<long[]> it = batches.iterator(0);
 * it.next();                              // [0, 1, 2]  ... and last [9]
 * }</pre>
 */
public interface BatchSampler {

    /** The number of batches one epoch yields: PyTorch's {@code len(batch_sampler)}. */
    long size();

    /** The batches of {@code epoch}, a pure function of the settings and the epoch. */
    Iterator<long[]> iterator(long epoch);

    /**
     * Groups {@code sampler}'s indices into batches of {@code batchSize}, keeping a shorter last
     * batch unless {@code dropLast}.
     *
     * @throws IllegalArgumentException if {@code batchSize < 1}
     */
    static FixedSizeBatchSampler of(Sampler sampler, int batchSize, boolean dropLast) {
        return new FixedSizeBatchSampler(sampler, batchSize, dropLast);
    }
}
