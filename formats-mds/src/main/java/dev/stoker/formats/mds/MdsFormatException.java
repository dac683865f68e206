package dev.stoker.formats.mds;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

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
 * <p>A {@link DataFormatException}: its source is the file the message starts with; a damaged
 * sample is at {@code DataPosition.item("sample", index)} (its index in the dataset), other places
 * are given in the message's words ({@link DataPosition.InMessage}).
 */
public final class MdsFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * A damaged sample.
     *
     * @param shard  the shard's file
     * @param sample the sample's index in the dataset
     * @param where  the place for the message, starting with the shard's file
     *               ({@code "path: shard 2 (shard.00002.mds), sample 17 (12 in the shard), column 'x'"})
     * @param what   what was wrong, for a person
     * @param cause  the failure that revealed it, or null
     */
    MdsFormatException(Path shard, long sample, String where, String what) {
        this(shard, sample, where, what, null);
    }

    /** As {@link #MdsFormatException(Path, long, String, String)}, with the failure that revealed it. */
    MdsFormatException(Path shard, long sample, String where, String what, Throwable cause) {
        super(where + ": " + what, shard.toString(), DataPosition.item("sample", sample), what, cause);
    }

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
