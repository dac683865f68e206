package dev.stoker.memory;

/**
 * Rounds a request up to the size class the pool caches it under.
 *
 * <p>Up to 4 KiB the classes are powers of two; above, each doubling is cut into eight steps,
 * so at most one eighth of a large buffer is slack while repeated requests of the same batch
 * shape still land in one class and reuse each other's buffers.
 */
final class SizeClass {
    static final long MIN = 64;
    static final long SMALL_LIMIT = 4096;
    /** Blocks from this size on are page-aligned, so a device or {@code mlock} can use whole pages. */
    static final long PAGE_ALIGNED_FROM = 64 * 1024;

    private SizeClass() {}

    static long of(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a buffer cannot have " + bytes + " bytes");
        }
        if (bytes <= MIN) {
            return MIN;
        }
        if (bytes <= SMALL_LIMIT) {
            return Long.highestOneBit(bytes - 1) << 1;
        }
        long step = Long.highestOneBit(bytes - 1) >>> 3;
        return Math.ceilDiv(bytes, step) * step;
    }

    static long alignment(long classBytes) {
        return classBytes >= PAGE_ALIGNED_FROM ? 4096 : 64;
    }
}
