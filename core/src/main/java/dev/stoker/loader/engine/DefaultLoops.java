package dev.stoker.loader.engine;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;

/**
 * Whether a dataset keeps the default loop of {@link Dataset#getBatch} or
 * {@link FillableDataset#fillBatch}, or has its own batched call. The loader runs a default loop
 * itself, so that a failing sample is named by its index, and calls a dataset's own once per
 * batch, as PyTorch calls {@code __getitems__}. The interfaces do not say which a dataset does
 * (the readers of the formats modules override them without declaring it), so this asks the
 * class, once per loader, when its recipe is chosen: never per batch.
 */
final class DefaultLoops {
    private DefaultLoops() {}

    /** Whether {@code dataset} has its own {@code fillBatch} rather than the default loop. */
    static boolean overridesFillBatch(FillableDataset<?> dataset) {
        try {
            return dataset.getClass().getMethod("fillBatch", long[].class, BatchSlots.class).getDeclaringClass()
                    != FillableDataset.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("FillableDataset.fillBatch(long[], BatchSlots) is public", e);
        }
    }

    /** Whether {@code dataset} has its own {@code getBatch} rather than the default loop. */
    static boolean overridesGetBatch(Dataset<?> dataset) {
        try {
            return dataset.getClass().getMethod("getBatch", long[].class).getDeclaringClass() != Dataset.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("Dataset.getBatch(long[]) is public", e);
        }
    }
}
