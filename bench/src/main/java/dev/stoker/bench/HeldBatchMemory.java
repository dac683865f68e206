package dev.stoker.bench;

import dev.stoker.collate.BatchMemory;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.SampleLayout;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Batch memory from a pool, given back on close: what the loader's batch assembly does, for the
 * benchmarks that collate or fill a batch outside a loader.
 *
 * <pre>{@code
 * try (HeldBatchMemory held = new HeldBatchMemory(pool)) {
 *     bh.consume(DefaultCollate.instance().collate(samples, held));
 * }
 * }</pre>
 */
final class HeldBatchMemory implements BatchMemory, AutoCloseable {
    private final BufferPool pool;
    private final List<PooledBuffer> buffers = new ArrayList<>(3);

    HeldBatchMemory(BufferPool pool) {
        this.pool = pool;
    }

    @Override
    public Tensor allocate(DType dtype, Shape shape) {
        PooledBuffer b = pool.acquire(shape.elements() * dtype.byteSize(), "bench batch");
        buffers.add(b);
        return new Tensor(b.segment(), dtype, shape);
    }

    /** The batch tensors of {@code layout} for {@code n} samples, as the loader's fill path takes them. */
    BatchSlots slots(SampleLayout layout, int n) {
        List<Tensor> out = new ArrayList<>(layout.size());
        for (SampleLayout.Field f : layout.fields()) {
            out.add(allocate(f.dtype(), f.shape().prepend(n)));
        }
        return new BatchSlots(layout, out);
    }

    @Override
    public void close() {
        buffers.forEach(PooledBuffer::close);
    }
}
