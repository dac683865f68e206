package dev.stoker.formats.lmdb;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * An LMDB environment that cannot be read as asked: no such path, not an LMDB file, a data file
 * shorter than its own metadata says, a missing key, a bad {@code __len__} or labels value. The
 * message names the path and, where there is one, the key. (Reading a closed dataset is an
 * {@link IllegalStateException}, as with every reader of the formats.)
 *
 * <p>A {@link DataFormatException}: its source is the environment's path, and the place in it (a
 * key, a page) is given in the message's words ({@link DataPosition.InMessage}).
 */
public final class LmdbException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param path    the environment
     * @param message the whole message, naming the path
     */
    public LmdbException(Path path, String message) {
        this(path, message, null);
    }

    /**
     * @param path    the environment
     * @param message the whole message, naming the path
     * @param cause   the failure that revealed it, or null
     */
    public LmdbException(Path path, String message, Throwable cause) {
        super(message, path.toString(), DataPosition.inMessage(), message, cause);
    }

    /** @param message the whole message, starting with the file it is about: {@code "FILE: what"} */
    public LmdbException(String message) {
        super(message, null);
    }

    /**
     * @param message the whole message, starting with the file it is about: {@code "FILE: what"}
     * @param cause   the failure that revealed it
     */
    public LmdbException(String message, Throwable cause) {
        super(message, cause);
    }
}
