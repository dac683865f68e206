package dev.stoker.formats.tar;

import java.lang.foreign.Arena;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens a shard by its location: an {@code http(s)://} URL is streamed ({@link HttpShards}), a
 * {@code pipe:} command's output is streamed ({@link PipeShards}); a {@code file:} URL or a plain
 * path is memory-mapped. Shard lists may mix them.
 */
public final class ShardSources {
    private ShardSources() {
    }

    /**
     * @param arena the arena local shards are mapped into; member data lives as long as it
     */
    public static TarReader open(String location, Arena arena, HttpClient http, int readAhead) {
        return open(location, arena, http, readAhead, HttpShards.DEFAULT_STALL_TIMEOUT);
    }

    /**
     * @param arena        the arena local shards are mapped into; member data lives as long as it
     * @param stallTimeout how long a read of a remote shard waits for the next bytes
     */
    public static TarReader open(String location, Arena arena, HttpClient http, int readAhead,
                                 Duration stallTimeout) {
        if (HttpShards.isUrl(location)) {
            return HttpShards.open(location, http, readAhead, stallTimeout);
        }
        if (PipeShards.isPipe(location)) {
            return PipeShards.open(location, readAhead, stallTimeout);
        }
        return TarReader.open(localPath(location), arena);
    }

    /** Whether a location is read as a stream (a URL, a command) rather than mapped from a local file. */
    public static boolean isStreamed(String location) {
        return HttpShards.isUrl(location) || PipeShards.isPipe(location);
    }

    /** The local path of a location: a {@code file:} URL or a path. */
    static Path localPath(String location) {
        if (location.startsWith("file:")) {
            return Path.of(java.net.URI.create(location));
        }
        return Path.of(location);
    }
}
