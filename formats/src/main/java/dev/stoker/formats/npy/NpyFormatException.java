package dev.stoker.formats.npy;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;

/**
 * A {@code .npy} file that cannot be read: not a {@code .npy} file, truncated, a header that does
 * not parse, or a dtype or layout Stoker does not read. The message names the file and says what
 * was wrong and where. A {@link DataFormatException} (unchecked: it was an
 * {@link java.io.IOException} before).
 */
public final class NpyFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param source the file (or other source: a tar member) that was being read
     * @param detail what was wrong and where, for a person
     */
    public NpyFormatException(String source, String detail) {
        super(source + ": " + detail, source, DataPosition.inMessage(), detail, null);
    }
}
