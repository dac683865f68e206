package dev.stoker.loader.engine;

import dev.stoker.collate.BatchMemory;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory of one batch while it is being built: every tensor collate asks for is a buffer
 * from the loader's pool, recorded here so that the finished {@link Batch} can give them all back,
 * or so that they go back at once when building the batch fails. Used by one thread at a time.
 */
final class BatchAssembly implements BatchMemory {
    private final BufferPool pool;
    private final String owner;
    private final List<PooledBuffer> buffers = new ArrayList<>(4);

    /** @param owner who holds the buffers, for the pool's reports: {@code "batch 3 of epoch 0"} */
    BatchAssembly(BufferPool pool, String owner) {
        this.pool = pool;
        this.owner = owner;
    }

    @Override
    public Tensor allocate(DType dtype, Shape shape) {
        long bytes = Math.multiplyExact(shape.elements(), (long) dtype.byteSize());
        PooledBuffer buffer = pool.acquire(bytes, owner);
        buffers.add(buffer);
        return new Tensor(buffer.segment(), dtype, shape);
    }

    /** The buffers taken so far, for the batch that will own them. */
    List<PooledBuffer> buffers() {
        return buffers;
    }

    /** Gives back every buffer taken so far: building the batch failed. */
    void release() {
        for (PooledBuffer b : buffers) {
            b.close();
        }
        buffers.clear();
    }
}
