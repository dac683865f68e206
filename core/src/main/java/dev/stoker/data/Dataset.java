package dev.stoker.data;

import java.util.ArrayList;
import java.util.List;

/**
 * A map-style dataset: a fixed number of samples, each reachable by its index, like PyTorch's
 * {@code Dataset} with {@code __len__} and {@code __getitem__}.
 *
 * <p>Workers are threads that share one dataset object, so {@link #get} and {@link #getBatch}
 * must be safe to call from several threads at once. Indices are {@code long}: a dataset may
 * hold more than 2^31 samples.
 *
 * <pre>{@code
 * Dataset<float[]> squares = new Dataset<>() {
 *     public long size() { return 1000; }
 *     public float[] get(long i) { return new float[] {i, i * i}; }
 * };
 * }</pre>
 */
public interface Dataset<T> {

    /** The number of samples. */
    long size();

    /**
     * The sample at {@code index}, in {@code [0, size())}.
     *
     * @throws IndexOutOfBoundsException for an index outside the dataset
     */
    T get(long index);

    /**
     * The samples at {@code indices}, in that order: PyTorch's {@code __getitems__}. The default
     * is a loop over {@link #get}; a dataset that can fetch many samples at once more cheaply
     * (one read, one random fill, one request) overrides it, and the loader calls it once per batch.
     */
    default List<T> getBatch(long[] indices) {
        List<T> out = new ArrayList<>(indices.length);
        for (long i : indices) {
            out.add(get(i));
        }
        return out;
    }

    /**
     * A hint that the samples at {@code indices} will be asked for soon: the loader gives each
     * batch's indices a few batches before it makes it ({@code LoaderBuilder.lookahead}). A
     * dataset whose samples are slow to reach the first time (a remote shard to fetch, a file to
     * read ahead) starts that work here, without waiting for it: this is called on the loader's
     * own path and must return at once. The default does nothing.
     */
    default void willNeed(long[] indices) {
    }

    /** A name for error messages and reports; the class name unless overridden. */
    default String name() {
        String simple = getClass().getSimpleName();
        return simple.isEmpty() ? getClass().getName() : simple;
    }
}
