package dev.stoker.formats.tar;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens a shard by its location: an {@code http(s)://} URL is streamed ({@link HttpShards}), a
 * {@code pipe:} command's output is streamed ({@link PipeShards}); a {@code file:} URL or a plain
 * path is memory-mapped. A gzip-compressed shard ({@code .tar.gz}, {@code .tgz}, recognized by its
 * magic bytes) is inflated as a stream wherever it comes from. Shard lists may mix them.
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
        return open(location, arena, http, readAhead, stallTimeout, cache, StreamTarSource.defaultMaxMember());
    }

    static TarReader open(String location, Arena arena, HttpClient http, int readAhead, Duration stallTimeout,
                          ShardCache cache, long maxMember) {
        if (!isStreamed(location)) {
            Path path = localPath(location);
            return local(path.toString(), path, arena, maxMember);
        }
        if (cache != null) {
            Path copy = cache.copyOf(location);
            if (copy != null) {
                try {
                    return local(location, copy, arena, maxMember).readingCachedCopy(copy);
                } catch (TarException e) {
                    // evicted by another process between the lookup and the open: fetch it again
                }
            }
        }
        RemoteBytes remote = stream(location, http, readAhead, stallTimeout);
        InputStream kept = cache == null ? remote.in() : cache.recording(location, remote.in(), remote.length());
        InputStream tar = GzipShards.inflatingIfGzip(kept, location);
        return TarReader.open(location, tar, tar == kept ? remote.length() : -1, maxMember);
    }

    /** The bytes of a streamed location (a URL, a command), and their length when known (else -1). */
    static RemoteBytes stream(String location, HttpClient http, int readAhead, Duration stallTimeout) {
        return stream(RemoteFile.at(location), http, readAhead, stallTimeout);
    }

    /** The bytes of a remote file, and their length when known (else -1). */
    static RemoteBytes stream(RemoteFile file, HttpClient http, int readAhead, Duration stallTimeout) {
        return switch (file) {
            case RemoteFile.Url url -> HttpShards.get(url.location(), http, readAhead, stallTimeout);
            case RemoteFile.Command command -> new RemoteBytes(PipeShards.output(command, readAhead, stallTimeout), -1);
        };
    }

    /** A local tar is mapped; a compressed one is inflated as a stream (its magic read from the map). */
    private static TarReader local(String location, Path path, Arena arena, long maxMember) {
        MemorySegment map = MappedTarSource.map(path, arena);
        if (!GzipShards.isGzip(map)) {
            return TarReader.overFile(location, path, map);
        }
        InputStream in;
        try {
            in = Files.newInputStream(path);
        } catch (IOException e) {
            throw new TarException(location, 0, "cannot open: " + e, e);
        }
        return TarReader.open(location, GzipShards.inflatingIfGzip(in, location), -1, maxMember);
    }

    /** Whether the shard at a location is local and gzip-compressed, so that it can only be streamed. */
    public static boolean isCompressedLocal(String location) {
        return !isStreamed(location) && GzipShards.isGzip(localPath(location));
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
