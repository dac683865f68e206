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
     * The rank whose batches this sampler yields, of {@link #worldSize()}: 0 unless it splits the
     * dataset across ranks. A loader records rank and world size in its state and refuses to
     * restore a state on another rank or world size (where batch {@code g} would be other
     * samples), unless the sampler is {@link #elastic()}.
     */
    default int rank() {
        return 0;
    }

    /** The number of ranks the dataset is split across: 1 unless this sampler splits it (see {@link #rank()}). */
    default int worldSize() {
        return 1;
    }

    /**
     * Whether batch {@code g} of an epoch stands for the same global batch whatever the rank and
     * the world size, so that a loader state taken on one rank restores on any rank of any world
     * size ({@link ElasticBatchSampler}); false by default.
     */
    default boolean elastic() {
        return false;
    }

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
