package dev.stoker.loader;

import java.util.Arrays;

/**
 * Where a map-style loader stands, taken at any batch with {@link DataLoader#state()} and given to
 * {@link DataLoader#restore} on a new loader (in another process, with another number of workers)
 * so that it goes on with exactly the batches an uninterrupted run would have delivered.
 *
 * <p>It holds no sample and no random state: the order of an epoch is a pure function of the seed
 * and the epoch, so knowing which batches of the epoch were delivered is enough. A record of
 * numbers, so Jackson (2.12 and later) writes and reads it as JSON as it is.
 *
 * <pre>{@code
 * LoaderState saved = loader.state();                 // e.g. in a checkpoint, beside the model
 * // ... later, in a new process:
 * DataLoader<Sample> again = DataLoader.builder(dataset).batchSize(64).shuffle(true).seed(42).build();
 * again.restore(saved);
 * for (Batch b : again) { ... }                       // the rest of the epoch, then the next epochs
 * }</pre>
 *
 * @param epoch           the epoch to go on with
 * @param nextBatch       every batch before this one was delivered in that epoch
 * @param deliveredAhead  batches at or after {@code nextBatch} delivered already (out-of-order
 *                        delivery), ascending
 * @param seed            the loader's seed, checked on restore
 * @param datasetSize     the dataset's size, checked on restore
 * @param batchesPerEpoch the loader's batches per epoch, checked on restore (it covers batch size,
 *                        drop last, sampler and world size)
 */
public record LoaderState(long epoch, long nextBatch, long[] deliveredAhead, long seed, long datasetSize,
                          long batchesPerEpoch) {

    public LoaderState {
        if (epoch < 0 || nextBatch < 0 || nextBatch > batchesPerEpoch) {
            throw new IllegalArgumentException("a loader state at batch " + nextBatch + " of epoch " + epoch
                    + " with " + batchesPerEpoch + " batches per epoch is not a position");
        }
        deliveredAhead = deliveredAhead.clone();
        for (int i = 0; i < deliveredAhead.length; i++) {
            if (deliveredAhead[i] <= nextBatch || deliveredAhead[i] >= batchesPerEpoch
                    || (i > 0 && deliveredAhead[i] <= deliveredAhead[i - 1])) {
                throw new IllegalArgumentException("batches delivered ahead " + Arrays.toString(deliveredAhead)
                        + " must ascend, each after batch " + nextBatch + " and before " + batchesPerEpoch);
            }
        }
    }

    @Override
    public long[] deliveredAhead() {
        return deliveredAhead.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoaderState s && epoch == s.epoch && nextBatch == s.nextBatch && seed == s.seed
                && datasetSize == s.datasetSize && batchesPerEpoch == s.batchesPerEpoch
                && Arrays.equals(deliveredAhead, s.deliveredAhead);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch) * 31 + Long.hashCode(nextBatch) * 17 + Arrays.hashCode(deliveredAhead);
    }

    @Override
    public String toString() {
        return "LoaderState(epoch " + epoch + ", next batch " + nextBatch
                + (deliveredAhead.length == 0 ? "" : ", delivered ahead " + Arrays.toString(deliveredAhead))
                + " of " + batchesPerEpoch + ", seed " + seed + ", " + datasetSize + " samples)";
    }
}
