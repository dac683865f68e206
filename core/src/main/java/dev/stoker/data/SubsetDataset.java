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
 */
public final class SubsetDataset<T> implements Dataset<T> {
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private final Dataset<T> dataset;
    private final long size;
    /** The parent's indices, or null when they are {@code permutation.apply(offset + i)}. */
    private final long[] indices;
    private final FeistelPermutation permutation;
    private final long offset;

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
    public List<T> getBatch(long[] batch) {
        long[] parent = new long[batch.length];
        for (int i = 0; i < batch.length; i++) {
            parent[i] = parentIndex(batch[i]);
        }
        return dataset.getBatch(parent);
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
