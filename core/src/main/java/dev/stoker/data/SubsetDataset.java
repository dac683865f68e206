package dev.stoker.data;

import dev.stoker.sampler.FeistelPermutation;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The samples of another dataset at given indices, in the given order: PyTorch's {@code Subset}.
 * Sample {@code i} of the subset is sample {@link #parentIndex parentIndex(i)} of the parent.
 * {@link #getBatch} translates the indices and calls the parent's {@code getBatch} once, so a
 * batched fetch stays batched. Made by {@link Datasets#subset} and {@link Datasets#randomSplit}.
 *
 * <p>The indices are either an array (from {@link Datasets#subset}) or a range of positions of a
 * {@link FeistelPermutation} (from {@link Datasets#randomSplit}), which holds no memory per
 * sample, so that a dataset of billions of samples can be split.
 *
 * <p>The subset of a {@link FillableDataset} is fillable too ({@link FillableSubsetDataset}), so
 * that a split of a tensor or HDF5 dataset keeps the loader's zero-copy fill path.
 *
 * <pre>{@code
 * List<SubsetDataset<Window>> parts = Datasets.randomSplit(windows, new double[] {0.9, 0.1}, 42);
 * SubsetDataset<Window> train = parts.get(0), validation = parts.get(1);
 * SubsetDataset<Window> firstHundred = Datasets.subset(windows, LongStream.range(0, 100).toArray());
 * }</pre>
 */
public sealed class SubsetDataset<T> implements Dataset<T> permits FillableSubsetDataset {
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private final Dataset<T> dataset;
    private final long size;
    /** The parent's indices, or null when they are {@code permutation.apply(offset + i)}. */
    private final long[] indices;
    private final FeistelPermutation permutation;
    private final long offset;

    /** The subset of {@code dataset} at {@code indices}: fillable when the dataset is. */
    static <T> SubsetDataset<T> of(Dataset<T> dataset, long[] indices) {
        return dataset instanceof FillableDataset<T> f ? new FillableSubsetDataset<>(f, indices)
                : new SubsetDataset<>(dataset, indices);
    }

    /** The subset of {@code dataset} at positions of a permutation: fillable when the dataset is. */
    static <T> SubsetDataset<T> of(Dataset<T> dataset, FeistelPermutation permutation, long offset, long size) {
        return dataset instanceof FillableDataset<T> f ? new FillableSubsetDataset<>(f, permutation, offset, size)
                : new SubsetDataset<>(dataset, permutation, offset, size);
    }

    /** Takes ownership of {@code indices}; the caller checks them ({@link Datasets#subset} does). */
    SubsetDataset(Dataset<T> dataset, long[] indices) {
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.size = indices.length;
        this.indices = indices;
        this.permutation = null;
        this.offset = 0;
    }

    /** Positions {@code [offset, offset + size)} of {@code permutation}, a permutation of the parent's indices. */
    SubsetDataset(Dataset<T> dataset, FeistelPermutation permutation, long offset, long size) {
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.size = size;
        this.indices = null;
        this.permutation = permutation;
        this.offset = offset;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public T get(long index) {
        return dataset.get(parentIndex(index));
    }

    @Override
    public void willNeed(long[] indices) {
        dataset.willNeed(parentIndices(indices));
    }

    @Override
    public List<T> getBatch(long[] batch) {
        return dataset.getBatch(parentIndices(batch));
    }

    /** The parent's index of sample {@code index} of this subset. */
    public long parentIndex(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + size + ")");
        }
        return indices != null ? indices[(int) index] : permutation.apply(offset + index);
    }

    /**
     * The parent's indices, in subset order (a fresh array).
     *
     * @throws IllegalStateException when the subset is too large for a Java array
     */
    public long[] indices() {
        if (indices != null) {
            return indices.clone();
        }
        if (size > MAX_ARRAY) {
            throw new IllegalStateException(name() + " has " + size + " samples, too many for an array of indices");
        }
        long[] out = new long[(int) size];
        for (int i = 0; i < out.length; i++) {
            out[i] = permutation.apply(offset + i);
        }
        return out;
    }

    /** The dataset the samples come from. */
    public Dataset<T> dataset() {
        return dataset;
    }

    /** The parent's indices of the samples at {@code batch}. */
    final long[] parentIndices(long[] batch) {
        long[] parent = new long[batch.length];
        for (int i = 0; i < batch.length; i++) {
            parent[i] = parentIndex(batch[i]);
        }
        return parent;
    }

    @Override
    public String name() {
        return "subset of " + dataset.name();
    }

    @Override
    public String toString() {
        long[] head = new long[(int) Math.min(size, 8)];
        for (int i = 0; i < head.length; i++) {
            head[i] = parentIndex(i);
        }
        String shown = Arrays.toString(head);
        return name() + " (" + size + " samples: " + (size > head.length ? shown.replace("]", ", ...]") : shown) + ")";
    }
}
