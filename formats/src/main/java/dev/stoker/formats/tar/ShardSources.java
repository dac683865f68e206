package dev.stoker.formats.tar;

import dev.stoker.data.DataFiles;
import dev.stoker.formats.remote.RemoteBytes;
import dev.stoker.formats.remote.RemoteFile;
import dev.stoker.formats.remote.RemoteFileException;
import dev.stoker.formats.remote.RemoteSettings;
import dev.stoker.formats.remote.ShardCache;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens a shard by its location: an {@code http(s)://} URL or a {@code pipe:} command's output is
 * streamed ({@link RemoteFile}); a {@code file:} URL or a plain path is memory-mapped. A gzip-compressed shard ({@code .tar.gz}, {@code .tgz}, recognized by its
 * magic bytes) is inflated as a stream wherever it comes from. Shard lists may mix them.
 */
public final class ShardSources {
    private ShardSources() {
    }

    /**
     * @param arena the arena local shards are mapped into; member data lives as long as it
     */
    public static TarReader open(String location, Arena arena, HttpClient http, int readAhead) {
        return open(location, arena, http, readAhead, RemoteSettings.DEFAULT_STALL_TIMEOUT);
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
            Path copy = cache.copyOf(location).orElse(null);
            if (copy != null) {
                try {
                    // A copy damaged on disk since it was kept is deleted, so that the next read fetches it again.
                    return local(location, copy, arena, maxMember)
                            .onFailure(e -> damaged(e, ShardCache.dropDamaged(copy)));
                } catch (TarException e) {
                    // evicted by another process between the lookup and the open: fetch it again
                }
            }
        }
        HttpClient client = http == null ? RemoteSettings.defaultClient() : http; // null: no URL expected
        RemoteBytes remote = stream(location, new RemoteSettings(client, readAhead, stallTimeout));
        InputStream kept = cache == null ? remote.in() : cache.recording(location, remote);
        InputStream tar = GzipShards.inflatingIfGzip(kept, location);
        return TarReader.open(location, tar, tar == kept ? remote.length() : -1, maxMember);
    }

    /**
     * Streams the remote shard {@code file} (a URL, a command) as a tar, inflated where it is
     * gzip-compressed, never held whole.
     *
     * <pre>{@code
     * try (TarReader tar = ShardSources.open(RemoteFile.at("pipe:cat /data/s-0.tar"), RemoteSettings.defaults())) { ... }
     * }</pre>
     *
     * @throws TarException naming the location when it cannot be fetched
     */
    public static TarReader open(RemoteFile file, RemoteSettings settings) {
        RemoteBytes remote = stream(file, settings);
        InputStream tar = GzipShards.inflatingIfGzip(remote.in(), file.location());
        return TarReader.open(file.location(), tar, tar == remote.in() ? remote.length() : -1,
                StreamTarSource.defaultMaxMember());
    }

    /** The bytes of a streamed location (a URL, a command); a failure to fetch it is the shard's. */
    private static RemoteBytes stream(String location, RemoteSettings settings) {
        try {
            return stream(RemoteFile.at(location), settings);
        } catch (RemoteFileException e) {
            throw new TarException(location, 0, e.what(), e);
        }
    }

    private static RemoteBytes stream(RemoteFile file, RemoteSettings settings) {
        try {
            return file.open(settings);
        } catch (RemoteFileException e) {
            throw new TarException(file.location(), 0, e.what(), e);
        }
    }

    /** {@code failure}, read from a cached copy, with what became of the copy ({@code note}) added. */
    static TarException damaged(TarException failure, String note) {
        return new TarException(failure.source(), failure.offset(), failure.what() + " " + note, failure);
    }

    /** A local tar is mapped; a compressed one is inflated as a stream (its magic read from the map). */
    private static TarReader local(String location, Path path, Arena arena, long maxMember) {
        MemorySegment map = MappedTarSource.map(path, arena);
        if (!GzipShards.isGzip(map)) {
            return TarReader.overFile(location, path, map);
        }
        InputStream in;
        try {
            in = DataFiles.newInputStream(path);
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
        return RemoteFile.isRemote(location);
    }

    /** The local path of a location: a {@code file:} URL or a path. */
    static Path localPath(String location) {
        if (location.startsWith("file:")) {
            return Path.of(java.net.URI.create(location));
        }
        return Path.of(location);
    }
}
