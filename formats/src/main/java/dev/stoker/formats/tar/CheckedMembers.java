package dev.stoker.formats.tar;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which members of one mapped shard have had their tar header checked against the index
 * ({@link MemberHeaderCheck}): each once per mapping, not on every read. The check costs about
 * 0.5 us a member, as much as the rest of a zero-copy read many times over; once per mapping it
 * still catches an index that describes another shard, before the first sample of it is handed
 * out. A new mapping (a shard evicted and fetched again) starts unchecked.
 */
final class CheckedMembers {
    private final MemorySegment shard;
    private final AtomicLongArray bits;

    CheckedMembers(MemorySegment shard, int members) {
        this.shard = shard;
        this.bits = new AtomicLongArray((members + 63) / 64);
    }

    /** Whether these marks are for {@code mapping} (the very segment, not another at the same address). */
    boolean covers(MemorySegment mapping) {
        return mapping == shard;
    }

    boolean isChecked(int member) {
        return (bits.get(member >>> 6) & (1L << member)) != 0;
    }

    void markChecked(int member) {
        bits.getAndAccumulate(member >>> 6, 1L << member, (a, b) -> a | b);
    }
}
