package dev.stoker.formats.tar;

import dev.stoker.formats.mmap.MapFaults;

/**
 * Names the shard when reading a member's data, a slice of the shard's map, faults because the
 * file was cut short under the map (the JVM's nameless {@code InternalError}; see
 * {@link MapFaults}). A slice does not know its file: a local shard's is its location; a remote
 * shard's is its copy in the shard cache.
 */
final class MappedMembers {
    private MappedMembers() {
    }

    /** What to throw for {@code error}, caught reading {@code what} of a sample of the shard at {@code url}. */
    static Error changed(InternalError error, String url, String what) {
        if (!ShardSources.isStreamed(url)) {
            return MapFaults.changed(error, ShardSources.localPath(url), -1, what);
        }
        return MapFaults.changedCopy(error, url, what);
    }
}
