package dev.stoker.memory;

/**
 * Counters of a {@link BufferPool} at one moment.
 *
 * @param allocations blocks taken from the memory source
 * @param reuses      requests served from a returned block
 * @param reservedBytes bytes held now, lent and idle
 * @param peakReservedBytes the most bytes held at once
 * @param lentBytes   bytes lent out now
 */
public record PoolStats(long allocations, long reuses, long reservedBytes, long peakReservedBytes, long lentBytes) {}
