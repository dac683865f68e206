package dev.stoker.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A dataset whose samples are another dataset's, each passed through a function: a per-sample
 * transform. {@link #getBatch} maps the inner dataset's {@code getBatch}, so a batched fetch
 * stays batched. Made by {@link Datasets#map}.
 *
 * <p>The function is called from every worker thread at once; it must be thread-safe.
 *
 * <pre>{@code
 * MappedDataset<LmdbSample, EncodedImage> images =
 *         Datasets.map(lmdb, s -> EncodedImage.of(s.value(), s.label(), s.key()));
 * }</pre>
 *
 * @param <T> the inner dataset's sample type
 * @param <R> this dataset's sample type
 */
public final class MappedDataset<T, R> implements Dataset<R> {
    private final Dataset<T> dataset;
    private final Function<? super T, ? extends R> function;

    MappedDataset(Dataset<T> dataset, Function<? super T, ? extends R> function) {
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.function = Objects.requireNonNull(function, "function");
    }

    @Override
    public long size() {
        return dataset.size();
    }

    @Override
    public R get(long index) {
        long size = dataset.size();
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + size + ")");
        }
        return function.apply(dataset.get(index));
    }

    @Override
    public void willNeed(long[] indices) {
        dataset.willNeed(indices);
    }

    @Override
    public List<R> getBatch(long[] indices) {
        List<T> inner = dataset.getBatch(indices);
        List<R> out = new ArrayList<>(inner.size());
        for (T sample : inner) {
            out.add(function.apply(sample));
        }
        return out;
    }

    /** The dataset whose samples are transformed. */
    public Dataset<T> dataset() {
        return dataset;
    }

    @Override
    public String name() {
        return "mapped " + dataset.name();
    }

    @Override
    public String toString() {
        return name() + " (" + size() + " samples)";
    }
}
