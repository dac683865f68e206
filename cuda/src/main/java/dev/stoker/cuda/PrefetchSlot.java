package dev.stoker.cuda;

import dev.stoker.loader.Batch;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One place in the prefetcher's ring: its own copy stream, the device buffers it reuses, an event
 * that fires when its copy is done, and an event the consumer records when it lets go of the
 * slot's data. The host batch stays with the slot until the copy has finished.
 */
final class PrefetchSlot implements AutoCloseable {
    final int id;
    private final CudaRuntime cuda;
    private final int device;
    final CudaStream stream;
    final CudaEvent copied;
    final CudaEvent released;
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    /** The host batch whose copy may still be running; closed once {@link #copied} has fired. */
    Batch host;
    DeviceBatch current;

    PrefetchSlot(int id, CudaRuntime cuda, int device) {
        this.id = id;
        this.cuda = cuda;
        this.device = device;
        this.stream = new CudaStream(cuda);
        this.copied = new CudaEvent(cuda, false);
        this.released = new CudaEvent(cuda, false);
    }

    /**
     * Queues the copy of {@code batch} into this slot's device buffers and returns the device-side
     * mirror of its data. The copy waits, on the GPU, for the consumer to have let go of the
     * slot's previous contents; the host never blocks here.
     */
    Object issueCopy(Batch batch) {
        stream.waitFor(released);
        int[] next = {0};
        Object mirrored = mirror(batch.data(), next);
        copied.record(stream);
        host = batch;
        return mirrored;
    }

    private Object mirror(Object value, int[] next) {
        if (value instanceof Tensor t) {
            DeviceBuffer buf = bufferFor(next[0]++, t.byteSize());
            cuda.memcpyAsync(buf.pointer(), t.segment().address(), t.byteSize(),
                    CudaRuntime.MEMCPY_HOST_TO_DEVICE, stream.handle());
            return new DeviceTensor(buf.pointer(), t.dtype(), t.shape(), device);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) out.add(mirror(o, next));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) out.put(e.getKey(), mirror(e.getValue(), next));
            return out;
        }
        return value;
    }

    /** The slot's n-th device buffer, grown (never per batch) when a tensor outgrows it. */
    private DeviceBuffer bufferFor(int n, long bytes) {
        if (n < buffers.size() && buffers.get(n).byteSize() >= bytes) {
            return buffers.get(n);
        }
        if (n < buffers.size()) {
            // The old buffer may still be read by queued work: wait for it before freeing.
            stream.synchronize();
            buffers.get(n).close();
            DeviceBuffer grown = DeviceBuffer.allocate(cuda, bytes);
            buffers.set(n, grown);
            return grown;
        }
        DeviceBuffer b = DeviceBuffer.allocate(cuda, bytes);
        buffers.add(b);
        return b;
    }

    /** Gives the host batch back to its pool if its copy has finished; with {@code wait}, waits for it. */
    boolean reclaimHost(boolean wait) {
        if (host == null) return true;
        if (wait) {
            copied.synchronize();
        } else if (!copied.isDone()) {
            return false;
        }
        host.close();
        host = null;
        return true;
    }

    long deviceBytes() {
        long n = 0;
        for (DeviceBuffer b : buffers) n += b.byteSize();
        return n;
    }

    @Override
    public void close() {
        stream.synchronize();
        reclaimHost(true);
        buffers.forEach(DeviceBuffer::close);
        buffers.clear();
        copied.close();
        released.close();
        stream.close();
    }
}
