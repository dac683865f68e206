package dev.stoker.formats.tar;

import java.nio.file.Path;

/**
 * A shard index file is not valid: wrong magic or version, a checksum that does not match, a count
 * or offset out of bounds, or it describes a shard of another length (stale). The message names
 * the file and the byte offset.
 */
public final class IndexFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public IndexFormatException(Path file, long offset, String what) {
        super("index " + file + ", byte offset " + offset + ": " + what);
        this.file = file;
    }

    /** The index file. */
    public Path file() {
        return file;
    }
}
