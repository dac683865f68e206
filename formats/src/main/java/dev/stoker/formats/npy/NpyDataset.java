package dev.stoker.formats.npy;

import dev.stoker.data.Dataset;
import dev.stoker.tensor.Tensor;

/**
 * The rows of a {@code .npy} array as a map-style dataset: sample {@code i} is
 * {@code array[i]}, a view of the file's map (no copy; the default collate copies it once, into
 * the batch). Made by {@link NpyFile#rows()}; valid while that file is open. Thread-safe.
 *
 * <pre>{@code
 * NpyDataset rows = npy.rows();   // for an array of shape (1000, 3, 32, 32)
 * rows.size();                    // 1000
 * rows.get(7).shape();            // [3, 32, 32]
 * }</pre>
 */
public final class NpyDataset implements Dataset<Tensor> {
    private final String source;
    private final Tensor array;
    private final long rows;

    NpyDataset(String source, Tensor array) {
        this.source = source;
        this.array = array;
        this.rows = array.shape().dim(0);
    }

    @Override
    public long size() {
        return rows;
    }

    @Override
    public Tensor get(long index) {
        if (index < 0 || index >= rows) {
            throw new IndexOutOfBoundsException(source + ": row " + index + " is outside [0, " + rows + ")");
        }
        return array.select(index);
    }

    /** The whole array. */
    public Tensor array() {
        return array;
    }

    @Override
    public String name() {
        return source;
    }

    @Override
    public String toString() {
        return "NpyDataset(" + source + ", " + rows + " rows of " + array.dtype() + " " + array.shape().dropFirst() + ")";
    }
}
