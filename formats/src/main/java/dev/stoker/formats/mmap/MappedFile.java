package dev.stoker.formats.mmap;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A whole file mapped read-only into memory through the FFM API: one {@link MemorySegment} of
 * the file's size, files past 2 GiB included, that many threads may read at once.
 *
 * <p>The map lives in a shared arena, its own or a {@link SharedArena group}'s; {@link #close()}
 * unmaps it (for a group: when the group's last file is closed). Reading the segment after that
 * throws {@link IllegalStateException}; it never crashes the JVM.
 *
 * <p>NOTE: the segment reflects the file. If another process truncates the file while it is
 * mapped, reading past the new end raises {@code SIGBUS} inside the JVM, which Java reports as an
 * {@link InternalError} that names no file; readers catch it around a sample's read and throw
 * {@link #changed} instead, which names this file and how it changed. Map only files that are not
 * being rewritten (replace one by renaming a new file over it).
 *
 * <pre>{@code
 * try (MappedFile f = MappedFile.open(Path.of("tokens.bin"))) {
 *     short first = f.segment().get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
 * }
 * }</pre>
 */
public final class MappedFile implements AutoCloseable {
    private final Path path;
    private final MemorySegment segment;
    private final SharedArena group; // null: the file owns 'ownArena'
    private final Arena ownArena;
    private boolean closed;

    private MappedFile(Path path, MemorySegment segment, SharedArena group, Arena ownArena) {
        this.path = path;
        this.segment = segment;
        this.group = group;
        this.ownArena = ownArena;
    }

    /** Maps {@code path} whole, in an arena of its own. */
    public static MappedFile open(Path path) throws IOException {
        Objects.requireNonNull(path, "path");
        Arena arena = Arena.ofShared();
        try {
            return new MappedFile(path, map(path, arena), null, arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Maps {@code path} whole, in {@code group}'s arena. */
    public static MappedFile open(Path path, SharedArena group) throws IOException {
        Objects.requireNonNull(path, "path");
        group.acquire();
        try {
            return new MappedFile(path, map(path, group.arena()), group, null);
        } catch (IOException | RuntimeException e) {
            group.release();
            throw e;
        }
    }

    private static MemorySegment map(Path path, Arena arena) throws IOException {
        try (FileChannel channel = DataFiles.openChannel(path)) { // a FIFO or a device is refused, not opened
            long size = channel.size();
            if (size == 0) {
                return MemorySegment.NULL; // an empty segment: mapping 0 bytes is not portable
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        }
    }

    public Path path() {
        return path;
    }

    /** The file's bytes. Valid until {@link #close()}. */
    public MemorySegment segment() {
        return segment;
    }

    /** The file's size in bytes when it was mapped. */
    public long size() {
        return segment.byteSize();
    }

    /**
     * The file's size on disk now, or -1 when it is gone or unreadable: after a fault that compiled
     * code reported late (at the end of a batch of copies), which of the copies lay past the
     * file's new end says which sample met it.
     */
    public long sizeNow() {
        try {
            return Files.size(path);
        } catch (IOException gone) {
            return -1;
        }
    }

    /**
     * What to throw for {@code error}, caught while reading {@code what} from this file's
     * segment: see {@link MapFaults#changed}.
     */
    public MappedFileChangedError changed(InternalError error, String what) {
        return MapFaults.changed(error, path, size(), what);
    }

    /**
     * {@link #changed} for a read that used two maps (data and its index): names {@code index} when
     * it is the one that shrank (or is gone), else {@code data}.
     */
    public static MappedFileChangedError changed(InternalError error, MappedFile data, MappedFile index, String what) {
        boolean indexShrank;
        try {
            indexShrank = Files.size(index.path()) < index.size();
        } catch (IOException gone) {
            indexShrank = true;
        }
        return (indexShrank ? index : data).changed(error, what);
    }

    /** Unmaps the file (in a group: gives the group's reference back). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (group != null) {
            group.release();
        } else {
            ownArena.close();
        }
    }

    @Override
    public String toString() {
        return "MappedFile(" + path + ", " + segment.byteSize() + " bytes)";
    }
}
