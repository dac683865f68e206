package dev.stoker.loader;

import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One batch as the loader delivers it: the collated value, which samples it holds, and the pooled
 * memory behind its tensors. Closing the batch gives that memory back to the pool, so close every
 * batch (try-with-resources) once the step that reads it is done; after that its tensors must not
 * be read.
 *
 * <pre>{@code
 * for (Batch batch : loader) {
 *     try (batch) {
 *         Tensor images = batch.tensor(0);      // (32, 3, 224, 224) f32
 *         Tensor labels = batch.tensor(1);      // (32,) i64
 *     }
 * }
 * }</pre>
 */
public final class Batch implements AutoCloseable {
    private final long epoch;
    private final long index;
    private final long[] indices;
    private final Object data;
    private final List<PooledBuffer> buffers;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param epoch   the epoch it belongs to
     * @param index   its position in the epoch, from 0
     * @param indices the dataset indices of its samples, in order (empty for streaming datasets)
     * @param data    the collated value
     * @param buffers the pooled memory its tensors live in, released on {@link #close()}
     */
    public Batch(long epoch, long index, long[] indices, Object data, List<PooledBuffer> buffers) {
        this.epoch = epoch;
        this.index = index;
        this.indices = indices;
        this.data = data;
        this.buffers = List.copyOf(buffers);
    }

    public long epoch() {
        return epoch;
    }

    /** This batch's position in its epoch, from 0. */
    public long index() {
        return index;
    }

    /** The dataset indices of the samples, in batch order. */
    public long[] indices() {
        return indices.clone();
    }

    /** The collated value: a tensor, a list or a map of them, or whatever the collate function made. */
    public Object data() {
        return data;
    }

    /** The element at {@code position} when the batch is a list (samples that were lists or arrays of fields). */
    public Object get(int position) {
        if (data instanceof List<?> list) {
            if (position < 0 || position >= list.size()) {
                throw new IndexOutOfBoundsException("batch " + index + " has " + list.size()
                        + " fields; there is no field " + position);
            }
            return list.get(position);
        }
        throw new IllegalStateException("batch " + index + " is a " + describe(data) + ", not a list of fields");
    }

    /** The field named {@code name} when the batch is a map (samples that were records or maps). */
    public Object get(String name) {
        if (data instanceof Map<?, ?> map) {
            if (!map.containsKey(name)) {
                throw new IllegalArgumentException("batch " + index + " has no field '" + name
                        + "'; its fields are " + map.keySet());
            }
            return map.get(name);
        }
        throw new IllegalStateException("batch " + index + " is a " + describe(data) + ", not a map of fields");
    }

    public Tensor tensor(int position) {
        return asTensor(get(position), "field " + position);
    }

    public Tensor tensor(String name) {
        return asTensor(get(name), "field '" + name + "'");
    }

    /** The batch itself as a tensor, when the samples were tensors or arrays. */
    public Tensor tensor() {
        return asTensor(data, "the batch");
    }

    private Tensor asTensor(Object value, String what) {
        if (value instanceof Tensor t) {
            return t;
        }
        throw new IllegalStateException(what + " of batch " + index + " is a " + describe(value) + ", not a tensor");
    }

    private static String describe(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName();
    }

    /** The pooled buffers behind this batch's tensors (for device copies). */
    public List<PooledBuffer> buffers() {
        return buffers;
    }

    public boolean isClosed() {
        return closed.get();
    }

    /** Gives the batch's memory back to the pool. Closing twice is harmless. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (PooledBuffer b : buffers) {
                b.close();
            }
        }
    }

    @Override
    public String toString() {
        return "Batch(epoch " + epoch + ", index " + index + ", " + indices.length + " samples)";
    }
}
