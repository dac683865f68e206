package dev.stoker.cuda;

import dev.stoker.loader.Batch;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
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
     * slot's previous contents; the host never blocks here. A {@code stage}'s work goes on the
     * same stream, before the event that says the slot is ready.
     */
    Object issueCopy(Batch batch, DeviceStage stage) {
        stream.waitFor(released);
        int[] next = {0};
        Object mirrored;
        if (stage != null && batch.data() instanceof Map<?, ?> fields) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : fields.entrySet()) {
                out.put(e.getKey(), stage.copies(e.getKey()) ? mirror(batch, e.getValue(), next) : e.getValue());
            }
            mirrored = out;
        } else {
            mirrored = mirror(batch, batch.data(), next);
        }
        if (stage != null) {
            mirrored = stage.apply(id, batch, mirrored, stream.handle());
        }
        copied.record(stream);
        host = batch;
        return mirrored;
    }

    private Object mirror(Batch batch, Object value, int[] next) {
        if (value instanceof Tensor t) {
            long host = hostAddress(batch, t);
            DeviceBuffer buf = bufferFor(next[0]++, t.byteSize());
            cuda.memcpyAsync(buf.pointer(), host, t.byteSize(),
                    CudaRuntime.MEMCPY_HOST_TO_DEVICE, stream.handle());
            return new DeviceTensor(buf.pointer(), t.dtype(), t.shape(), device);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) out.add(mirror(batch, o, next));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) out.put(e.getKey(), mirror(batch, e.getValue(), next));
            return out;
        }
        return value;
    }

    /**
     * The address the GPU copies {@code t} from: off-heap memory that is not a memory map. The
     * CUDA driver reads the host memory in native code, where a mapped file cut short under its
     * map is a {@code SIGBUS} that kills the JVM (not the {@code InternalError} a Java read
     * gets), and a heap segment has no stable address at all; a batch collated into the loader's
     * pool (the default collate, or any collate that allocates from the {@code BatchAssembly})
     * is neither.
     *
     * @throws IllegalArgumentException naming the batch, when {@code t} lies in a map or on the heap
     */
    static long hostAddress(Batch batch, Tensor t) {
        MemorySegment s = t.segment();
        if (s.isNative() && !s.isMapped()) {
            return s.address();
        }
        String where = s.isMapped() ? "in a memory-mapped file (a view of the dataset's map, not a copy)"
                : "on the Java heap";
        throw new IllegalArgumentException("batch " + batch.index() + " of epoch " + batch.epoch() + ": its tensor of "
                + t.dtype() + ", shape " + t.shape() + ", lies " + where + ", which the GPU copy cannot read"
                + " safely: collate the batch into the loader's pool (the default collate does; a collate of your own"
                + " allocates its tensors from the BatchAssembly it is given)");
    }

    /** The slot's n-th device buffer, grown (never per batch) when a tensor outgrows it. */
    /** The size a buffer outgrown by a batch of {@code bytes} is replaced with: a quarter more, in 2 MiB steps. */
    static long grownSize(long bytes) {
        long step = 2L << 20;
        long want = bytes + bytes / 4;
        return (want + step - 1) / step * step;
    }

    private DeviceBuffer bufferFor(int n, long bytes) {
        if (n < buffers.size() && buffers.get(n).byteSize() >= bytes) {
            return buffers.get(n);
        }
        if (n < buffers.size()) {
            // The old buffer may still be read by queued work: wait for it before freeing. Freeing
            // device memory waits for the whole GPU, the running step included, so a buffer grows
            // with room to spare: batches of varying length then outgrow it a few times, not at
            // every new longest batch.
            stream.synchronize();
            buffers.get(n).close();
            DeviceBuffer grown = DeviceBuffer.allocate(cuda, grownSize(bytes));
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
