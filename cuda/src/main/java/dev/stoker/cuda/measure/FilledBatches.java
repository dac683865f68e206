package dev.stoker.cuda.measure;

import dev.stoker.loader.Batch;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Batches of W3's shape ((n, 3, 224, 224) f32 images and (n,) i64 labels) written into pooled
 * buffers as fast as memory allows: a loader with no decode cost, to measure the copy path alone.
 */
public final class FilledBatches implements Iterator<Batch> {
    private final BufferPool pool;
    private final int count;
    private final Shape image;
    private int k;

    public FilledBatches(BufferPool pool, int count, int batchSize) {
        this.pool = pool;
        this.count = count;
        this.image = Shape.of(batchSize, 3, 224, 224);
    }

    public static long batchBytes(int batchSize) {
        return (long) batchSize * 3 * 224 * 224 * 4 + batchSize * 8L;
    }

    @Override
    public boolean hasNext() {
        return k < count;
    }

    @Override
    public Batch next() {
        if (!hasNext()) throw new NoSuchElementException();
        long n = image.dim(0);
        PooledBuffer x = pool.acquire(image.elements() * 4, "images of batch " + k);
        PooledBuffer y = pool.acquire(n * 8, "labels of batch " + k);
        x.segment().fill((byte) k); // every byte written, as a loader writes every pixel
        Tensor labels = new Tensor(y.segment(), DType.I64, Shape.of(n));
        for (long i = 0; i < n; i++) labels.setLong(i, (k * n + i) % 1000);
        long[] idx = new long[(int) n];
        for (int i = 0; i < n; i++) idx[i] = k * n + i;
        Object data = Map.of("image", new Tensor(x.segment(), DType.F32, image), "label", labels);
        return new Batch(0, k++, idx, data, List.of(x, y));
    }
}
