package dev.stoker.formats.tar;

import dev.stoker.formats.remote.ShardCache;
import java.lang.foreign.Arena;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * How a dataset opens its shards: the settings for streamed ones (client, read-ahead, stall
 * timeout, largest member) and the cache that keeps copies of remote ones, if any.
 *
 * @param cache     where remote shards are kept, or null
 * @param maxMember the largest member a streamed shard may have
 */
record ShardOpener(HttpClient http, int readAhead, Duration stallTimeout, ShardCache cache, long maxMember) {

    /** Opens {@code location}; a local shard is mapped into {@code arena}. */
    TarReader open(String location, Arena arena) {
        return ShardSources.open(location, arena, http, readAhead, stallTimeout, cache, maxMember);
    }
}
