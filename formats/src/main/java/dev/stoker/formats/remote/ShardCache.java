package dev.stoker.formats.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A local folder that keeps copies of remote shards and files ({@code http(s)://}, {@code pipe:}),
 * so that the epochs after the first read them from local disk, memory-mapped, instead of fetching
 * them again: MosaicML Streaming's local cache, WebDataset's {@code cache_dir}. Tar shards, MDS
 * shards and indices, or any file a reader wants a local copy of ({@link #fetchFile}). A shard is written to
 * the folder as it streams in, and becomes a cached copy only once its stream ended cleanly and
 * whole (the length the server announced, a command's exit status 0), by an atomic rename: a
 * reader never sees half a copy, and several processes (the ranks of one machine) may share the
 * folder.
 *
 * <p>With a limit, the copies used least recently are deleted once the folder holds more than the
 * limit (a shard being read stays readable: the map outlives the file's name). A copy that cannot
 * be written (disk full) is given up with a warning; the shard is still read from its stream.
 *
 * <pre>{@code
 * TarShardDataset train = TarShardDataset.builder("https://host/train-{000000..000999}.tar")
 *         .cache(ShardCache.in(Path.of("/local/ssd/stoker-cache"), 200L << 30))  // at most 200 GiB
 *         .build();
 * }</pre>
 */
public final class ShardCache {
    private static final System.Logger LOG = System.getLogger(ShardCache.class.getName());
    /** How the part file of a copy being written ends; such files are never read as copies. */
    public static final String PART = ".part";
    /** How long a part file stays untouched before it counts as left behind by a killed process. */
    public static final Duration ABANDONED_AFTER = Duration.ofHours(6);

    private final Path dir;
    private final long limitBytes;
    /** Copies fetched for a caller that has not opened them yet: eviction in this process leaves them. */
    private final Map<Path, Integer> pinned = new ConcurrentHashMap<>();

    private ShardCache(Path dir, long limitBytes) {
        this.dir = dir;
        this.limitBytes = limitBytes;
    }

    /** A cache in {@code dir} (made if missing) with no size limit. */
    public static ShardCache in(Path dir) {
        return in(dir, Long.MAX_VALUE);
    }

    /**
     * A cache in {@code dir} (made if missing) that keeps at most {@code limitBytes} of copies.
     *
     * @throws UncheckedIOException when the folder cannot be made
     */
    public static ShardCache in(Path dir, long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("a cache limit is positive, not " + limitBytes + " bytes");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the shard cache folder " + dir + ": " + e.getMessage(), e);
        }
        deleteAbandonedParts(dir);
        return new ShardCache(dir, limitBytes);
    }

    /**
     * Deletes the part files that a process killed while downloading left behind: nothing reads
     * them and the limit does not count them, so without this they would fill the disk over many
     * runs. A part file being written is written to at least every stall timeout; one untouched
     * for {@link #ABANDONED_AFTER} is no one's.
     */
    private static void deleteAbandonedParts(Path dir) {
        long before = System.currentTimeMillis() - ABANDONED_AFTER.toMillis();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(PART)).toList()) {
                try {
                    if (Files.getLastModifiedTime(f).toMillis() < before) {
                        Files.deleteIfExists(f);
                    }
                } catch (IOException e) {
                    // gone already, or not ours to delete: the next cache made here tries again
                }
            }
        } catch (IOException e) {
            // an unreadable folder fails the first copy kept in it, with its own message
        }
    }

    /** The folder the copies are kept in. */
    public Path dir() {
        return dir;
    }

    /** The most bytes of copies kept ({@link Long#MAX_VALUE}: no limit). */
    public long limitBytes() {
        return limitBytes;
    }

    /**
     * The file a copy of {@code location} is kept in: the SHA-256 of the location (so that no two
     * locations share one), then the end of the location in safe characters, to be recognizable.
     */
    public Path fileFor(String location) {
        return named(location, ".tar");
    }

    /**
     * The file a copy of the shard index at {@code location} is kept in: as {@link #fileFor}, ending
     * in {@code .idx}. Index copies are small and not counted against the limit.
     */
    public Path indexFileFor(String location) {
        return named(location, ".idx");
    }

    private Path named(String location, String suffix) {
        String hash;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(location.getBytes(StandardCharsets.UTF_8));
            hash = HexFormat.of().formatHex(digest, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
        String tail = location.replaceAll("[^A-Za-z0-9._-]+", "_");
        tail = tail.substring(Math.max(0, tail.length() - 60));
        return dir.resolve(hash + "-" + tail + (tail.endsWith(suffix) ? "" : suffix));
    }

    /** The cached copy of the shard at {@code location} ({@link #fileFor}), marked as just used; empty when there is none. */
    public Optional<Path> copyOf(String location) {
        return Optional.ofNullable(used(fileFor(location)));
    }

    /** {@code file}, marked as just used; null when it is not there. */
    private static Path used(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
            return file;
        } catch (IOException e) {
            return null; // not cached (or evicted by another process just now)
        }
    }

    /**
     * {@code remote}, the bytes of the shard at {@code location}, copied into the cache (as
     * {@link #fileFor} names it) as they are read; the copy is kept if the stream ends cleanly with
     * the announced length, and given up otherwise. Closing the stream closes {@code remote}.
     */
    public InputStream recording(String location, RemoteBytes remote) {
        return recording(location, remote.in(), remote.length(), fileFor(location));
    }

    private InputStream recording(String location, InputStream in, long expectedLength, Path target) {
        Path part;
        try {
            part = Files.createTempFile(dir, "." + target.getFileName(), PART);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "shard cache: cannot write into " + dir + " (" + e.getMessage()
                    + "); " + location + " is read without keeping a copy");
            return in;
        }
        return new RecordingInputStream(in, part, target, expectedLength, this);
    }

    /**
     * The cached copy of the shard at {@code location} (as {@link #fileFor} names it), fetched
     * whole first when there is none. The copy comes back pinned: eviction in this process leaves
     * it until the caller, having opened it, calls {@link #unpin}. Another process sharing the
     * folder may still evict it; a caller that finds it gone fetches again.
     *
     * @throws RemoteFileException naming the location when it cannot be fetched or kept
     */
    public Path fetchPinned(String location, RemoteSettings settings) {
        return fetch(RemoteFile.at(location), fileFor(location), settings);
    }

    /**
     * The cached copy of the file at {@code location} ({@code http(s)://} or {@code pipe:}), fetched
     * whole first when there is none, with {@link RemoteSettings#defaults()}: for files read from a
     * local copy, such as an MDS dataset's index and shards. Kept as {@link #fileFor} names it, without the {@code .tar}; it counts against the
     * limit, and a caller that shares the cache with a limit must open the copy before the cache
     * evicts it.
     *
     * <pre>{@code
     * Path index = ShardCache.in(Path.of("/ssd/cache")).fetchFile("https://host/mds/train/index.json");
     * }</pre>
     *
     * @throws RemoteFileException naming the location when it cannot be fetched or kept
     */
    public Path fetchFile(String location) {
        return fetchFile(RemoteFile.at(location));
    }

    /**
     * As {@link #fetchFile(String)}, for a file whose name came from data, placed into the user's
     * template by {@link RemoteFile#of}: kept under its {@link RemoteFile#location()}.
     *
     * <pre>{@code
     * Path shard = cache.fetchFile(RemoteFile.of("pipe:aws s3 cp s3://bucket/mds/{} -", "shard.00000.mds"));
     * }</pre>
     *
     * @throws RemoteFileException naming the location when it cannot be fetched or kept
     */
    public Path fetchFile(RemoteFile file) {
        return fetchFile(file, RemoteSettings.defaults());
    }

    /**
     * As {@link #fetchFile(RemoteFile)}, fetched with {@code settings}.
     *
     * @throws RemoteFileException naming the location when it cannot be fetched or kept
     */
    public Path fetchFile(RemoteFile file, RemoteSettings settings) {
        Path copy = fetch(file, named(file.location(), ""), settings);
        unpin(copy);
        return copy;
    }

    /**
     * As {@link #fetchPinned}, for a shard's index: kept as {@link #indexFileFor}, never evicted;
     * the pin still has to go ({@link #unpin}).
     *
     * @throws RemoteFileException naming the location when it cannot be fetched or kept
     */
    public Path fetchIndexPinned(String location, RemoteSettings settings) {
        return fetch(RemoteFile.at(location), indexFileFor(location), settings);
    }

    private Path fetch(RemoteFile file, Path target, RemoteSettings settings) {
        pinned.merge(target, 1, Integer::sum);
        try {
            return fetchWhilePinned(file, target, settings);
        } catch (RuntimeException | Error e) {
            unpin(target);
            throw e;
        }
    }

    /** Lets eviction take {@code copy} again, once its caller has opened it. */
    public void unpin(Path copy) {
        pinned.computeIfPresent(copy, (p, n) -> n == 1 ? null : n - 1);
    }

    private Path fetchWhilePinned(RemoteFile file, Path target, RemoteSettings settings) {
        Path copy = used(target);
        if (copy != null) {
            return copy;
        }
        String location = file.location();
        RemoteBytes remote = file.open(settings);
        boolean kept;
        try (InputStream in = recording(location, remote.in(), remote.length(), target)) {
            in.transferTo(OutputStream.nullOutputStream());
            kept = in instanceof RecordingInputStream r && r.kept();
        } catch (IOException e) {
            throw new RemoteFileException(location, "fetching it failed: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        if (!kept) {
            throw new RemoteFileException(location, "it was fetched but no copy could be kept in " + dir
                    + (remote.length() >= 0 ? " (it may have ended before its " + remote.length() + " bytes)" : "")
                    + "; see the warning before this");
        }
        return target;
    }

    /**
     * Deletes {@code copy}, found damaged (it was whole when kept: it changed on disk since, or the
     * shard is not what its sidecar says), so that the next read fetches the shard again instead of
     * failing on the same copy for ever; returns what to add to the reader's error, which says so:
     * {@code "(read from the cached copy /c/ab12-x.tar; deleted it, so that ...)"}.
     */
    public static String dropDamaged(Path copy) {
        String outcome;
        try {
            Files.deleteIfExists(copy);
            outcome = "deleted it, so that the next read fetches the shard again";
        } catch (IOException e) {
            outcome = "could not delete it (" + e.getMessage() + "): delete it to fetch the shard again";
        }
        return "(read from the cached copy " + copy + "; " + outcome + ")";
    }

    /** Deletes the copies used least recently until the folder holds at most the limit, sparing {@code keep}. */
    void evict(Path keep) {
        if (limitBytes == Long.MAX_VALUE) {
            return;
        }
        List<Path> copies = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> !f.getFileName().toString().endsWith(PART) && !f.getFileName().toString().endsWith(".idx"))
                    .forEach(copies::add);
        } catch (IOException e) {
            return; // the next copy tries again
        }
        record Copy(Path path, long size, long used) {
        }
        List<Copy> known = new ArrayList<>();
        long total = 0;
        for (Path p : copies) {
            try {
                Copy c = new Copy(p, Files.size(p), Files.getLastModifiedTime(p).toMillis());
                known.add(c);
                total += c.size;
            } catch (IOException e) {
                // gone already (another process evicted it)
            }
        }
        known.sort(Comparator.comparingLong(Copy::used));
        for (Copy c : known) {
            if (total <= limitBytes) {
                break;
            }
            if (c.path.equals(keep) || pinned.containsKey(c.path)) {
                continue;
            }
            try {
                Files.deleteIfExists(c.path);
                total -= c.size;
            } catch (IOException e) {
                // in use where deleting an open file is refused; tried again next time
            }
        }
    }

    @Override
    public String toString() {
        return "ShardCache[" + dir + (limitBytes == Long.MAX_VALUE ? "" : ", limit " + limitBytes + " bytes") + "]";
    }
}
