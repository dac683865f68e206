package dev.stoker.formats.tar;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * A shard index file is not valid: wrong magic or version, a checksum that does not match, a count
 * or offset out of bounds, or it describes a shard of another length (stale). The message names
 * the file and the byte offset: a {@link DataFormatException}.
 */
public final class IndexFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * @param file   the index file
     * @param offset the byte offset in it where the problem was found
     * @param what   what was wrong, for a person
     */
    public IndexFormatException(Path file, long offset, String what) {
        super("index " + file + ", byte offset " + offset + ": " + what, file.toString(),
                DataPosition.byteOffset(offset), what, null);
        this.file = file;
    }

    /** The index file. */
    public Path file() {
        return file;
    }
}
