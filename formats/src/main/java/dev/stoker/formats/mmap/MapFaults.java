package dev.stoker.formats.mmap;

import dev.stoker.memory.MappedReads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Turns the JVM's nameless fault on a memory-mapped file that shrank ({@code SIGBUS}, reported as
 * {@link InternalError}) into a {@link MappedFileChangedError} that names the file, says how
 * its size changed and what was being read. Readers catch {@code InternalError} around a sample's
 * read of a map (a {@code get}, a {@code fill}, a batch's fill: no work on the happy path, a catch
 * costs nothing until it catches) and rethrow what {@link #changed} gives:
 *
 * <pre>{@code
 * try {
 *     ... read sample i from the map ...
 *     MapFaults.deliverPending(); // a fault that compiled code deferred surfaces here, inside the try
 * } catch (InternalError e) {
 *     throw MapFaults.changed(e, path, mappedSize, "sample " + i);
 * }
 * }</pre>
 *
 * The file is looked at (one {@code stat}) only once a fault has happened.
 */
public final class MapFaults {
    private MapFaults() {
    }

    /**
     * Whether {@code error} is the JVM's report of a fault in a memory access to a map (JDK 25:
     * "a fault occurred in an unsafe memory access operation", or "... in a recent unsafe memory
     * access operation in compiled Java code" when it surfaces after the access).
     */
    public static boolean isMapFault(Throwable error) {
        return MappedReads.isFault(error);
    }

    /**
     * Throws here a map fault that compiled code met earlier on this thread and has not reported
     * yet: call it last inside the {@code try} around a map read, so that its {@code catch} sees
     * the fault (see {@link MappedReads#deliverPendingFault()}).
     */
    public static void deliverPending() {
        MappedReads.deliverPendingFault();
    }

    /**
     * What to throw for {@code error}, caught while reading {@code what} from the map of
     * {@code file}: a {@link MappedFileChangedError} naming the file when {@code error} is a
     * map fault; any other {@code InternalError} is rethrown as it is (this method throws it).
     *
     * @param mappedSize the file's size when it was mapped, or -1 where the reader did not keep it
     * @param what       what was being read, for the message: {@code "sample 17"}
     */
    public static MappedFileChangedError changed(InternalError error, Path file, long mappedSize, String what) {
        if (!isMapFault(error)) {
            throw error;
        }
        long now;
        try {
            now = Files.size(file);
        } catch (IOException e) {
            now = -1;
        }
        String was = mappedSize >= 0 ? mappedSize + " bytes when it was mapped" : "mapped";
        String how;
        if (now < 0) {
            how = "was " + was + " and is now gone or unreadable (cut short, then deleted or replaced)";
        } else if (mappedSize >= 0 && now < mappedSize) {
            how = "was " + was + " and is now " + now + " bytes: it was truncated (or is being rewritten in place)";
        } else {
            how = "was " + was + " and is now " + now + " bytes: it was cut short after it was mapped and written"
                    + " again in place";
        }
        return new MappedFileChangedError(file + " changed while it was memory-mapped: it " + how + "; reading "
                + what + " faulted past its end. Reopen the dataset once the file is whole; to replace a file"
                + " that is being read, write the new one beside it and rename it over the old", file, mappedSize,
                now, error);
    }

    /**
     * As {@link #changed}, for a map of a local copy of {@code location} (a remote shard's copy in a
     * cache) whose file the reader does not know: the error names the location.
     */
    public static MappedFileChangedError changedCopy(InternalError error, String location, String what) {
        if (!isMapFault(error)) {
            throw error;
        }
        return new MappedFileChangedError("the local copy of " + location + " (in a cache) changed while it was"
                + " memory-mapped: it was cut short (by another process sharing the cache, or a cleaner), and reading "
                + what + " faulted past its end. Reopen the dataset; the copy is fetched again once it is removed",
                null, -1, -1, error);
    }

    /**
     * As {@link #changed}, for a file that the reader both maps and reads with positional reads
     * (where the bytes go to native code, which must not meet a fault): a read that ended early
     * at byte {@code at}, before the {@code openedSize} bytes the file had when it was opened.
     *
     * @param cause the short read's own exception
     */
    public static MappedFileChangedError cutShort(Path file, long openedSize, long currentSize, String what,
            Throwable cause) {
        String how = currentSize < 0 ? "is now gone or unreadable" : "is now " + currentSize + " bytes";
        return new MappedFileChangedError(file + " changed while it was memory-mapped: it was " + openedSize
                + " bytes when it was opened and " + how + ": it was truncated (or is being rewritten in place);"
                + " reading " + what + " found its end early. Reopen the dataset once the file is whole; to replace"
                + " a file that is being read, write the new one beside it and rename it over the old", file,
                openedSize, currentSize, cause);
    }
}
