package dev.stoker.formats.mds;

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
 */
public final class MdsFormatException extends RuntimeException {
    public MdsFormatException(String message) {
        super(message);
    }

    public MdsFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
