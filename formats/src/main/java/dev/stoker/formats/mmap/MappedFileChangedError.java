package dev.stoker.formats.mmap;

import dev.stoker.memory.MappedDataChangedError;
import java.nio.file.Path;

/**
 * A memory-mapped file changed under the reader: it was truncated (or rewritten in place) after it
 * was mapped, and reading a page past its new end faulted. The JVM reports that fault as an
 * {@link InternalError} ("a fault occurred in an unsafe memory access operation") that names no
 * file; this says which file, how its size changed, and what was being read (a sample's index).
 * The JVM is unharmed, but the map cannot be read again where the file was cut: reopen the
 * dataset once the file is whole.
 *
 * <p>A {@link MappedDataChangedError} (an {@link java.io.IOError}), as the fault it reports was an
 * {@code Error}: a serious I/O failure of the data under the reader, not one bad sample, so a
 * loader that skips bad samples does not skip the rest of the file one sample at a time; it fails
 * at the batch that met it.
 *
 * <p>Stoker maps files read-only and expects them to stay as they are while it reads. To replace
 * a file that readers may have mapped, write the new one beside it and rename it over the old:
 * open maps keep the old contents, and the next open sees the new file.
 */
public final class MappedFileChangedError extends MappedDataChangedError {
    private final transient Path file;
    private final long mappedSize;
    private final long currentSize;

    MappedFileChangedError(String message, Path file, long mappedSize, long currentSize, Throwable fault) {
        super(message, fault);
        this.file = file;
        this.mappedSize = mappedSize;
        this.currentSize = currentSize;
    }

    /** The file that changed, or null where the reader knows only its location (a remote shard's cached copy). */
    public Path file() {
        return file;
    }

    /** Its size when it was mapped, or -1 where the reader did not keep it. */
    public long mappedSize() {
        return mappedSize;
    }

    /** Its size when the fault was seen, or -1 when it was gone or unknown. */
    public long currentSize() {
        return currentSize;
    }
}
