package dev.stoker.loader.engine;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import java.util.List;

/**
 * The I/O mode for a fillable dataset: the rows of a batch are filled all at once, each
 * {@code fill} on a virtual thread of its own, as {@link ConcurrentFetchDataset} fetches samples,
 * so a dataset that waits (remote storage) keeps the zero-copy fill path. Each fill writes only
 * its own row, so the fills share the batch's slots safely.
 *
 * <p>Used for a fillable dataset that keeps {@link FillableDataset#fillBatch}'s default loop; one
 * with its own {@code fillBatch} is one call per batch, and gets its concurrency from the workers.
 * Under {@link SamplePolicy#SKIP} a batch with a bad sample is filled again one sample at a time
 * ({@link RowFill}), so as to leave that sample out.
 *
 * <p>A failed fill is named by its own slot's field ({@link SampleSlot#lastField()}), not by the
 * batch's last one, which another row's fill may have asked for since.
 */
final class ConcurrentFillDataset<T> extends ConcurrentFetchDataset<T> implements FillableDataset<T> {
    private final FillableDataset<T> fillable;
    private final boolean ownGetBatch;

    ConcurrentFillDataset(FillableDataset<T> dataset, int concurrency) {
        super(dataset, concurrency);
        this.fillable = dataset;
        this.ownGetBatch = DefaultLoops.overridesGetBatch(dataset);
    }

    /** On the collate path (a collate was given): the samples fetched at once, or by the dataset's own batched fetch. */
    @Override
    public List<T> getBatch(long[] indices) {
        return ownGetBatch ? fillable.getBatch(indices) : super.getBatch(indices);
    }

    @Override
    public SampleLayout layout() {
        return fillable.layout();
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        fillable.fill(index, slot);
    }

    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        fanOut(indices, "filling", (j, i) -> {
            SampleSlot slot = slots.slot(j);
            try {
                fillable.fill(i, slot);
            } catch (RuntimeException e) {
                throw slot.lastField() == null ? e : new FieldFailure(slot.lastField(), e);
            }
            return null;
        });
    }
}
