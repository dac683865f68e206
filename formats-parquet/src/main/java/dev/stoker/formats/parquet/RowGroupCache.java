package dev.stoker.formats.parquet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The decoded row groups each worker thread keeps, least recently used first out: a row group is
 * decoded once and then serves every row a worker asks of it while it stays cached. Per thread, so
 * workers never wait on each other; the memory is at most workers x {@code capacity} decoded row
 * groups (each bounded by {@code maxRowGroupBytes}).
 */
final class RowGroupCache {
    private final int capacity;
    private final ThreadLocal<LinkedHashMap<Integer, RowGroupData>> groups;

    RowGroupCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("cache at least 1 row group per worker, not " + capacity);
        }
        this.capacity = capacity;
        this.groups = ThreadLocal.withInitial(() -> new LinkedHashMap<>(4, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, RowGroupData> eldest) {
                return size() > RowGroupCache.this.capacity;
            }
        });
    }

    /** Row group {@code group}, from this thread's cache or decoded by {@code decode} now. */
    RowGroupData get(int group, IntFunction<RowGroupData> decode) {
        LinkedHashMap<Integer, RowGroupData> mine = groups.get();
        RowGroupData d = mine.get(group);
        if (d == null) {
            d = decode.apply(group);
            mine.put(group, d);
        }
        return d;
    }

    int capacity() {
        return capacity;
    }

    /** Drops this thread's row groups. */
    void clear() {
        groups.remove();
    }
}
