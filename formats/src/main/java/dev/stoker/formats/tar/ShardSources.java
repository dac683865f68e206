package dev.stoker.formats.tar;

import java.io.InputStream;
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
        return open(location, arena, http, readAhead, stallTimeout, null);
    }

    /**
     * As {@link #open(String, Arena, HttpClient, int, Duration)}; a remote shard is read from its
     * copy in {@code cache} when there is one, and copied into it as it streams in when not.
     *
     * @param cache where remote shards are kept, or null
     */
    public static TarReader open(String location, Arena arena, HttpClient http, int readAhead,
                                 Duration stallTimeout, ShardCache cache) {
        if (!isStreamed(location)) {
            return TarReader.open(localPath(location), arena);
        }
        if (cache != null) {
            Path copy = cache.copyOf(location);
            if (copy != null) {
                try {
                    return TarReader.over(location, MappedTarSource.map(copy, arena));
                } catch (TarException e) {
                    // evicted by another process between the lookup and the map: fetch it again
                }
            }
        }
        InputStream in;
        long length;
        if (HttpShards.isUrl(location)) {
            HttpShards.Body body = HttpShards.get(location, http, readAhead, stallTimeout);
            in = body.in();
            length = body.length();
        } else {
            in = PipeShards.output(location, readAhead, stallTimeout);
            length = -1;
        }
        return TarReader.open(location, cache == null ? in : cache.recording(location, in, length), length);
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
