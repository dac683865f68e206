package dev.stoker.data;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Several datasets one after another: PyTorch's {@code ConcatDataset}. Index {@code i} is found
 * by binary search over the cumulative sizes, so a lookup costs {@code O(log parts)}; sizes are
 * {@code long}. {@link #getBatch} groups a batch's indices by part and calls each part's
 * {@code getBatch} once, so batched fetches stay batched. Made by {@link Datasets#concat}.
 *
 * <p>The parts' sizes are read once, when the concatenation is made. When every part is a
 * {@link FillableDataset} with the same layout, the concatenation is fillable too
 * ({@link FillableConcatDataset}).
 *
 * <pre>{@code
 * ConcatDataset<Window> all = Datasets.concat(web, books, code);
 * long[] sizes = all.partSizes();   // for a MixtureSampler's shares
 * }</pre>
 */
public sealed class ConcatDataset<T> implements Dataset<T> permits FillableConcatDataset {
    private final List<Dataset<? extends T>> parts;
    /** {@code ends[k]}: one past the last index of part {@code k}; non-decreasing. */
    private final long[] ends;

    /** The concatenation of {@code parts}: fillable when they all are, with one layout. */
    @SuppressWarnings("unchecked")
    static <T> ConcatDataset<T> of(List<? extends Dataset<? extends T>> parts) {
        SampleLayout layout = null;
        for (Dataset<? extends T> part : parts) {
            if (!(part instanceof FillableDataset<?> f) || (layout != null && !layout.equals(f.layout()))) {
                return new ConcatDataset<>(parts);
            }
            layout = f.layout();
        }
        return layout == null ? new ConcatDataset<>(parts)
                : new FillableConcatDataset<>((List<? extends FillableDataset<? extends T>>) parts, layout);
    }

    ConcatDataset(List<? extends Dataset<? extends T>> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("concat needs at least one dataset");
        }
        this.parts = List.copyOf(parts);
        this.ends = new long[parts.size()];
        long total = 0;
        for (int k = 0; k < ends.length; k++) {
            long size = this.parts.get(k).size();
            if (size < 0) {
                throw new IllegalArgumentException("part " + k + " (" + this.parts.get(k).name()
                        + ") reports a negative size " + size);
            }
            try {
                total = Math.addExact(total, size);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("the concatenated sizes pass 2^63 at part " + k, e);
            }
            ends[k] = total;
        }
    }

    @Override
    public long size() {
        return ends[ends.length - 1];
    }

    @Override
    public T get(long index) {
        int k = part(index);
        return parts.get(k).get(index - start(k));
    }

    @Override
    public List<T> getBatch(long[] indices) {
        if (indices.length == 0) {
            return new ArrayList<>();
        }
        int[] partOf = new int[indices.length];
        boolean onePart = true;
        for (int i = 0; i < indices.length; i++) {
            partOf[i] = part(indices[i]);
            onePart &= partOf[i] == partOf[0];
        }
        if (onePart) {
            return new ArrayList<>(parts.get(partOf[0]).getBatch(local(indices, partOf, partOf[0])));
        }
        // Mixed parts: one getBatch per part, then each sample back to its place in the batch.
        List<T> out = new ArrayList<>(indices.length);
        for (int i = 0; i < indices.length; i++) {
            out.add(null);
        }
        boolean[] done = new boolean[parts.size()];
        for (int i = 0; i < indices.length; i++) {
            int k = partOf[i];
            if (done[k]) {
                continue;
            }
            done[k] = true;
            long[] local = local(indices, partOf, k);
            List<? extends T> samples = parts.get(k).getBatch(local);
            if (samples.size() != local.length) {
                throw new IllegalStateException(parts.get(k).name() + ".getBatch returned " + samples.size()
                        + " samples for " + local.length + " indices");
            }
            int next = 0;
            for (int j = i; j < indices.length; j++) {
                if (partOf[j] == k) {
                    out.set(j, samples.get(next++));
                }
            }
        }
        return out;
    }

    /** Each part hears of its own indices, as its own indices. */
    @Override
    public void willNeed(long[] indices) {
        int[] partOf = new int[indices.length];
        boolean[] seen = new boolean[parts.size()];
        for (int i = 0; i < indices.length; i++) {
            partOf[i] = part(indices[i]);
        }
        for (int k : partOf) {
            if (!seen[k]) {
                seen[k] = true;
                parts.get(k).willNeed(local(indices, partOf, k));
            }
        }
    }

    /** The indices of the batch that fall in part {@code k}, in batch order, as the part's own indices. */
    private long[] local(long[] indices, int[] partOf, int k) {
        int n = 0;
        for (int p : partOf) {
            if (p == k) n++;
        }
        long[] out = new long[n];
        long start = start(k);
        for (int i = 0, j = 0; i < indices.length; i++) {
            if (partOf[i] == k) out[j++] = indices[i] - start;
        }
        return out;
    }

    /** The part holding {@code index}: the first whose end is past it (empty parts are skipped). */
    final int part(long index) {
        long size = size();
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + size + ")");
        }
        int lo = 0;
        int hi = ends.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ends[mid] > index) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The first index of part {@code k}. */
    final long start(int k) {
        return k == 0 ? 0 : ends[k - 1];
    }

    /** The datasets, in order. */
    public List<Dataset<? extends T>> parts() {
        return parts;
    }

    /** The size of each part, in order, as read when the concatenation was made. */
    public long[] partSizes() {
        long[] out = new long[ends.length];
        for (int k = 0; k < ends.length; k++) {
            out[k] = ends[k] - start(k);
        }
        return out;
    }

    /** The first index of each part in the concatenation. */
    public long[] offsets() {
        long[] out = new long[ends.length];
        for (int k = 0; k < ends.length; k++) {
            out[k] = start(k);
        }
        return out;
    }

    @Override
    public String name() {
        return "concat of (" + parts.stream().map(Dataset::name).collect(Collectors.joining(", ")) + ")";
    }

    @Override
    public String toString() {
        return name() + " (" + size() + " samples)";
    }
}
