package dev.stoker.cuda;

import java.util.List;
import java.util.Map;

/**
 * A batch whose tensors are in device memory: the same structure as the host batch's
 * {@link dev.stoker.loader.Batch#data()}, with each {@link dev.stoker.tensor.Tensor} replaced by a
 * {@link DeviceTensor}. Work queued on the consumer stream after {@link DevicePrefetcher#next()}
 * returned sees the copied data.
 *
 * <p>Closing it (or asking the prefetcher for the next batch) lets the prefetcher reuse its device
 * memory once the work queued on the consumer stream so far has finished; the host does not wait.
 *
 * <pre>{@code
 * try (DeviceBatch b = prefetcher.next()) {
 *     DeviceTensor images = b.tensor("image");
 *     model.step(images.pointer(), consumerStream);
 * }
 * }</pre>
 */
public final class DeviceBatch implements AutoCloseable {
    private final long epoch;
    private final long index;
    private final long[] indices;
    private final Object data;
    private final Runnable release;
    private boolean closed;

    DeviceBatch(long epoch, long index, long[] indices, Object data, Runnable release) {
        this.epoch = epoch;
        this.index = index;
        this.indices = indices;
        this.data = data;
        this.release = release;
    }

    public long epoch() {
        return epoch;
    }

    public long index() {
        return index;
    }

    /** The dataset indices of the samples, in batch order. */
    public long[] indices() {
        return indices.clone();
    }

    /** The batch with device tensors in place of host tensors. */
    public Object data() {
        return data;
    }

    public DeviceTensor tensor() {
        return as(data, "the batch");
    }

    public DeviceTensor tensor(int position) {
        if (data instanceof List<?> list) return as(list.get(position), "field " + position);
        throw new IllegalStateException("batch " + index + " is not a list of fields");
    }

    public DeviceTensor tensor(String name) {
        if (data instanceof Map<?, ?> map) {
            if (!map.containsKey(name)) {
                throw new IllegalArgumentException("batch " + index + " has no field '" + name + "'; its fields are " + map.keySet());
            }
            return as(map.get(name), "field '" + name + "'");
        }
        throw new IllegalStateException("batch " + index + " is not a map of fields");
    }

    private DeviceTensor as(Object o, String what) {
        if (o instanceof DeviceTensor t) return t;
        throw new IllegalStateException(what + " of batch " + index + " is not a tensor but " + o);
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            release.run();
        }
    }
}
