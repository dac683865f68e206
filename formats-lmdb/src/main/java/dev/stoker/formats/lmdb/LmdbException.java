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
 * <p>A {@link DataFormatException}: its source is the environment's path; a key that is missing or
 * holds a bad value is at {@code DataPosition.named("key", key)}, other places (a page) are given
 * in the message's words ({@link DataPosition.InMessage}).
 */
public final class LmdbException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param path    the environment
     * @param message the whole message, naming the path
     */
    public LmdbException(Path path, String message) {
        this(path, message, (Throwable) null);
    }

    /**
     * @param path    the environment
     * @param message the whole message, naming the path
     * @param cause   the failure that revealed it, or null
     */
    public LmdbException(Path path, String message, Throwable cause) {
        super(message, path.toString(), DataPosition.inMessage(), message, cause);
    }

    /**
     * A key that is missing or holds what its reader cannot take.
     *
     * @param path    the environment
     * @param key     the key
     * @param message the whole message, naming the path and the key
     * @param cause   the failure that revealed it, or null
     */
    public LmdbException(Path path, String key, String message, Throwable cause) {
        super(message, path.toString(), DataPosition.named("key", key), message, cause);
    }

    /**
     * As {@link #LmdbException(Path, String, String, Throwable)}, with no cause.
     *
     * @param path    the environment
     * @param key     the key
     * @param message the whole message, naming the path and the key
     */
    public LmdbException(Path path, String key, String message) {
        this(path, key, message, null);
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
