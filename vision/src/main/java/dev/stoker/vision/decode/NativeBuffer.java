package dev.stoker.vision.decode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap memory reused from call to call, grown (never shrunk) when a larger image comes.
 * Belongs to one {@link DecodeSession}; used by one thread at a time, though not always the same
 * thread, so its arena is shared. Growing closes the old arena; it doubles so that it happens a
 * few times per session, not per image.
 */
final class NativeBuffer implements AutoCloseable {
    private static final long MIN_CAPACITY = 256 * 1024;
    private Arena arena;
    private MemorySegment segment = MemorySegment.NULL;

    /** The first {@code bytes} bytes of the buffer, grown first if needed; old contents are not kept. */
    MemorySegment ensure(long bytes) {
        if (bytes > segment.byteSize()) {
            long capacity = Math.max(bytes, Math.max(MIN_CAPACITY, segment.byteSize() * 2));
            capacity = (capacity + 65535) & ~65535L;
            close();
            arena = Arena.ofShared();
            segment = arena.allocate(capacity, 64);
        }
        return segment.asSlice(0, bytes);
    }

    long capacity() {
        return segment.byteSize();
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
            segment = MemorySegment.NULL;
        }
    }
}
