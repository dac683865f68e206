package dev.stoker.formats.hdf5;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The decoded chunks one thread read last, least recently used first out, up to a byte budget
 * (always at least one chunk): a chunk of 64 rows is then decoded once per 64 sequential reads
 * instead of 64 times. One per worker thread, so no locking.
 */
final class ChunkCache {
    /** What a chunk missing from the file (never written: it reads as the fill value) is cached as. */
    static final byte[] MISSING = new byte[0];

    private final long budget;
    private long bytes;
    private final LinkedHashMap<Long, byte[]> chunks = new LinkedHashMap<>(16, 0.75f, true);

    ChunkCache(long budget) {
        this.budget = budget;
    }

    /** The chunk cached under {@code key}, or null. */
    byte[] get(long key) {
        return chunks.get(key);
    }

    void put(long key, byte[] chunk) {
        byte[] old = chunks.put(key, chunk);
        bytes += chunk.length - (old == null ? 0 : old.length);
        var it = chunks.entrySet().iterator();
        while (bytes > budget && chunks.size() > 1) {
            Map.Entry<Long, byte[]> eldest = it.next();
            if (eldest.getKey() == key) {
                continue;
            }
            bytes -= eldest.getValue().length;
            it.remove();
        }
    }
}
