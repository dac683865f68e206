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
 *
 * <p>A short batch (the last of an epoch) takes its tensors from blocks sized for a full one: the
 * pool keeps those, and one is usually idle by then, where a block of the short batch's own size
 * would be fresh memory beside the full batches still in flight (W3's 10 MiB at its peak).
 */
final class BatchAssembly implements BatchMemory {
    private final BufferPool pool;
    private final String owner;
    private final int rows;
    private final int fullRows; // 0 unless this batch is short
    private final List<PooledBuffer> buffers = new ArrayList<>(4);

    /**
     * @param owner    who holds the buffers, for the pool's reports: {@code "batch 3 of epoch 0"}
     * @param rows     the samples in this batch
     * @param fullRows the samples in a full batch of this loader, or 0 where batches have no one size
     */
    BatchAssembly(BufferPool pool, String owner, int rows, int fullRows) {
        this.pool = pool;
        this.owner = owner;
        this.fullRows = rows > 0 && rows < fullRows ? fullRows : 0;
        this.rows = rows;
    }

    @Override
    public Tensor allocate(DType dtype, Shape shape) {
        long bytes = Math.multiplyExact(shape.elements(), (long) dtype.byteSize());
        long blockBytes = fullRows > 0 && shape.rank() > 0 && shape.dim(0) == rows
                ? Math.multiplyExact(bytes / rows, (long) fullRows) : bytes;
        PooledBuffer buffer = pool.acquire(bytes, blockBytes, owner);
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
