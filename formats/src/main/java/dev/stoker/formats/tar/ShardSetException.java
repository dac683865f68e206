package dev.stoker.formats.tar;

/**
 * A set of shards is not whole: a writer is still writing it or was killed (its in-progress mark
 * is there), its manifest does not match the shards, or the manifest cannot be read. The message
 * names the file and says what to do.
 */
public final class ShardSetException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ShardSetException(String message) {
        super(message);
    }

    public ShardSetException(String message, Throwable cause) {
        super(message, cause);
    }
}
