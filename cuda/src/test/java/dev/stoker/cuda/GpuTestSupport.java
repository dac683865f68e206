package dev.stoker.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.loader.Batch;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/** Shared pieces of the tests that need a GPU. */
final class GpuTestSupport {
    private GpuTestSupport() {}

    static CudaRuntime cudaOrSkip() {
        assumeTrue(Cuda.isAvailable(), Cuda.status());
        return Cuda.require();
    }

    /** The value of word {@code i} of batch {@code k}: distinct across batches and positions. */
    static long word(long k, long i) {
        long z = k * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 29);
    }

    static long expectedChecksum(long k, long words) {
        long s = 0;
        for (long i = 0; i < words; i++) s += word(k, i);
        return s;
    }

    /**
     * Batches of {@code rows} x {@code cols} i64 written into buffers from {@code pool}, with a
     * label tensor beside, as a loader would deliver them. Each buffer is written right after it
     * is acquired, so a buffer given back too early is overwritten while its copy may be running.
     */
    static Iterator<Batch> batches(BufferPool pool, int count, int rows, int cols) {
        return new Iterator<>() {
            int k;

            public boolean hasNext() {
                return k < count;
            }

            public Batch next() {
                if (!hasNext()) throw new NoSuchElementException();
                long words = (long) rows * cols;
                PooledBuffer data = pool.acquire(words * 8, "batch " + k);
                MemorySegment seg = data.segment();
                for (long i = 0; i < words; i++) seg.setAtIndex(ValueLayout.JAVA_LONG, i, word(k, i));
                PooledBuffer labels = pool.acquire(rows * 8L, "labels " + k);
                Tensor lab = new Tensor(labels.segment(), DType.I64, Shape.of(rows));
                for (int r = 0; r < rows; r++) lab.setLong(r, k * 1000L + r);
                Tensor x = new Tensor(seg, DType.I64, Shape.of(rows, cols));
                long[] idx = new long[rows];
                for (int r = 0; r < rows; r++) idx[r] = (long) k * rows + r;
                return new Batch(0, k++, idx, Map.of("x", x, "label", lab), List.of(data, labels));
            }
        };
    }
}
