package dev.stoker.data;

import dev.stoker.sampler.FeistelPermutation;

/**
 * The subset of a {@link FillableDataset}: it fills sample {@code i} as the parent fills
 * {@link #parentIndex parentIndex(i)}, and a batch with one {@code fillBatch} of the parent, so
 * a subset (or a {@link Datasets#randomSplit} part) of a tensor, token or HDF5 dataset keeps the
 * loader's fill path. Made by {@link Datasets#subset} and {@link Datasets#randomSplit} when the
 * parent is fillable.
 *
 * <pre>{@code
 * SubsetDataset<float[]> train = Datasets.subset(tensors, trainIndices);
 * boolean fills = train instanceof FillableDataset<?>;      // true: batches are filled in place
 * }</pre>
 */
public final class FillableSubsetDataset<T> extends SubsetDataset<T> implements FillableDataset<T> {
    private final FillableDataset<T> parent;

    FillableSubsetDataset(FillableDataset<T> dataset, long[] indices) {
        super(dataset, indices);
        this.parent = dataset;
    }

    FillableSubsetDataset(FillableDataset<T> dataset, FeistelPermutation permutation, long offset, long size) {
        super(dataset, permutation, offset, size);
        this.parent = dataset;
    }

    @Override
    public SampleLayout layout() {
        return parent.layout();
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        parent.fill(parentIndex(index), slot);
    }

    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        parent.fillBatch(parentIndices(indices), slots);
    }
}
