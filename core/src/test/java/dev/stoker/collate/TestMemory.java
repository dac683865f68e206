package dev.stoker.collate;

import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

/**
 * Batch memory for tests: from an arena, or from a {@link BufferPool} as the loader does. Fills
 * every new tensor with 0x5A bytes so that a collate that forgets to write a byte is caught.
 */
final class TestMemory implements BatchMemory, AutoCloseable {
    static final byte GARBAGE = 0x5A;

    private final Arena arena;
    private final BufferPool pool;
    private final List<PooledBuffer> buffers = new ArrayList<>();
    private final List<Tensor> allocated = new ArrayList<>();

    private TestMemory(Arena arena, BufferPool pool) {
        this.arena = arena;
        this.pool = pool;
    }

    static TestMemory arena() {
        return new TestMemory(Arena.ofConfined(), null);
    }

    static TestMemory pooled(BufferPool pool) {
        return new TestMemory(null, pool);
    }

    @Override
    public Tensor allocate(DType dtype, Shape shape) {
        long bytes = shape.elements() * dtype.byteSize();
        Tensor t;
        if (pool != null) {
            PooledBuffer b = pool.acquire(bytes, "test batch");
            buffers.add(b);
            t = new Tensor(b.segment(), dtype, shape);
        } else {
            t = new Tensor(arena.allocate(Math.max(bytes, 1), 64), dtype, shape);
        }
        t.segment().fill(GARBAGE);
        allocated.add(t);
        return t;
    }

    /** Every tensor handed out so far, in order. */
    List<Tensor> allocated() {
        return allocated;
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
        buffers.forEach(PooledBuffer::close);
    }
}
