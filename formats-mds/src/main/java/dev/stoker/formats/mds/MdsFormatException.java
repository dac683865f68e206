package dev.stoker.formats.mds;

import dev.stoker.data.DataFormatException;

/**
 * An MDS dataset that cannot be read as its index says: a missing or malformed {@code index.json},
 * a shard file that is truncated, damaged or does not match the index, a sample whose bytes do not
 * add up, or a value that cannot be given in the form asked for. The message names the directory
 * or file, and where it applies the shard, the sample and the column.
 *
 * <pre>{@code
 * try (MdsDataset ds = MdsDataset.open(dir)) { ... }
 * catch (MdsFormatException e) { log.error("bad MDS data: {}", e.getMessage()); }
 * }</pre>
 *
 * <p>A {@link DataFormatException}: its source is the file the message starts with, and the place
 * in the file is given in the message's words ({@link dev.stoker.data.DataPosition.InMessage}).
 */
public final class MdsFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /** @param message the whole message, starting with the file it is about: {@code "FILE: what"} */
    public MdsFormatException(String message) {
        super(message, null);
    }

    /**
     * @param message the whole message, starting with the file it is about: {@code "FILE: what"}
     * @param cause   the failure that revealed it
     */
    public MdsFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
