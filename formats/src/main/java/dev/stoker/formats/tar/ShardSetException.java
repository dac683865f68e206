package dev.stoker.formats.tar;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * A set of shards is not whole: a writer is still writing it or was killed (its in-progress mark
 * is there), its manifest does not match the shards, or the manifest cannot be read. The message
 * names the file and says what to do. A {@link DataFormatException}: the set on disk is not what
 * its manifest says (it was an {@link IllegalStateException} before).
 */
public final class ShardSetException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /** A manifest's line that does not parse: {@code "FILE, line N: what"}. */
    ShardSetException(Path manifest, long line, String what, Throwable cause) {
        super(manifest + ", line " + line + ": " + what, manifest.toString(), DataPosition.line(line), what, cause);
    }

    /** @param message the whole message, starting with the file it is about: {@code "FILE: what"} */
    public ShardSetException(String message) {
        super(message, null);
    }

    /**
     * @param message the whole message, starting with the file it is about: {@code "FILE: what"}
     * @param cause   the failure that revealed it
     */
    public ShardSetException(String message, Throwable cause) {
        super(message, cause);
    }
}
