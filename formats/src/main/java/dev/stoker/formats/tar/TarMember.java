package dev.stoker.formats.tar;

import java.lang.foreign.MemorySegment;

/**
 * A regular file in a tar shard.
 *
 * @param name         the full name, after pax {@code path} and GNU long names
 * @param headerOffset where its (first) header starts in the shard
 * @param dataOffset   where its data starts in the shard
 * @param data         its bytes: a slice of the shard's memory map, or a heap segment when streamed
 */
public record TarMember(String name, long headerOffset, long dataOffset, MemorySegment data) {

    /** The data's length in bytes. */
    public long size() {
        return data.byteSize();
    }
}
