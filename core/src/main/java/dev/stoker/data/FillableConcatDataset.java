package dev.stoker.data;

import java.util.List;

/**
 * The concatenation of fillable datasets that share one layout: sample {@code i} is filled by the
 * part that holds it, and a batch that falls in one part is filled by that part's
 * {@code fillBatch}, so the loader keeps its fill path. Made by {@link Datasets#concat} when every
 * part is fillable with the same layout.
 *
 * <pre>{@code
 * ConcatDataset<List<Tensor>> both = Datasets.concat(trainTensors, extraTensors);
 * boolean fills = both instanceof FillableDataset<?>;      // true when the layouts agree
 * }</pre>
 */
public final class FillableConcatDataset<T> extends ConcatDataset<T> implements FillableDataset<T> {
    private final List<? extends FillableDataset<? extends T>> fillable;
    private final SampleLayout layout;

    FillableConcatDataset(List<? extends FillableDataset<? extends T>> parts, SampleLayout layout) {
        super(parts);
        this.fillable = List.copyOf(parts);
        this.layout = layout;
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        int k = part(index);
        fillable.get(k).fill(index - start(k), slot);
    }

    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        if (indices.length == 0) {
            return;
        }
        int k = part(indices[0]);
        long start = start(k);
        long[] local = new long[indices.length];
        for (int j = 0; j < indices.length; j++) {
            if (part(indices[j]) != k) { // mixed parts: sample by sample, each into its row
                for (int i = 0; i < indices.length; i++) {
                    fill(indices[i], slots.slot(i));
                }
                return;
            }
            local[j] = indices[j] - start;
        }
        fillable.get(k).fillBatch(local, slots);
    }
}
