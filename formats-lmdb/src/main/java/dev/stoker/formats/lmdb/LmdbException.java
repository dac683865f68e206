package dev.stoker.formats.lmdb;

/**
 * An LMDB environment that cannot be read as asked: no such path, not an LMDB file, a data file
 * shorter than its own metadata says, a missing key, a bad {@code __len__} or labels value. The
 * message names the path and, where there is one, the key. (Reading a closed dataset is an
 * {@link IllegalStateException}, as with every reader of the formats.)
 */
public final class LmdbException extends RuntimeException {
    public LmdbException(String message) {
        super(message);
    }

    public LmdbException(String message, Throwable cause) {
        super(message, cause);
    }
}
