package dev.stoker.formats.tar;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;

/**
 * A tar shard could not be read: it is truncated, a header is corrupt, a size runs past the end,
 * or the connection serving it failed: a {@link DataFormatException} at a byte offset. The
 * message names the shard (path or URL) and the byte offset where the problem was found, so that
 * a person can look at the file with {@code tar tvf} or {@code xxd -s OFFSET}.
 *
 * <pre>
 * shard data/shard-000003.tar, byte offset 1536: header checksum is 4711 but the header sums to 4712
 * </pre>
 */
public final class TarException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    private final long offset;

    /**
     * @param source the shard's path or URL
     * @param offset the byte offset in the shard where the problem was found
     * @param what   what was wrong, for a person
     */
    public TarException(String source, long offset, String what) {
        this(source, offset, what, null);
    }

    /**
     * @param source the shard's path or URL
     * @param offset the byte offset in the shard where the problem was found
     * @param what   what was wrong, for a person
     * @param cause  the failure that revealed it (a read that failed), or null
     */
    public TarException(String source, long offset, String what, Throwable cause) {
        super("shard " + source + ", byte offset " + offset + ": " + what, source, DataPosition.byteOffset(offset),
                what, cause);
        this.offset = offset;
    }

    /** The byte offset in the shard where the problem was found. */
    public long offset() {
        return offset;
    }
}
