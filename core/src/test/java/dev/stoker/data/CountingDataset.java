package dev.stoker.data;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test dataset whose sample {@code i} is {@code offset + i}, counting its calls. With
 * {@code batched} it overrides {@code getBatch} (one call per batch, like {@code __getitems__});
 * without, it keeps the default loop.
 */
public class CountingDataset implements Dataset<Long> {
    public final AtomicLong gets = new AtomicLong();
    public final AtomicLong batches = new AtomicLong();
    public final List<long[]> batchArguments = new ArrayList<>();
    private final String name;
    private final long size;
    private final long offset;

    public CountingDataset(String name, long size, long offset) {
        this.name = name;
        this.size = size;
        this.offset = offset;
    }

    public CountingDataset(long size) {
        this("counting", size, 0);
    }

    /** The same, with its own {@code getBatch}. */
    public static CountingDataset batched(String name, long size, long offset) {
        return new CountingDataset(name, size, offset) {
            @Override
            public List<Long> getBatch(long[] indices) {
                batches.incrementAndGet();
                synchronized (batchArguments) {
                    batchArguments.add(indices.clone());
                }
                List<Long> out = new ArrayList<>();
                for (long i : indices) {
                    out.add(fetch(i));
                }
                return out;
            }
        };
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public Long get(long index) {
        gets.incrementAndGet();
        return fetch(index);
    }

    protected Long fetch(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name + ": index " + index + " is outside [0, " + size + ")");
        }
        return offset + index;
    }

    @Override
    public String name() {
        return name;
    }
}
