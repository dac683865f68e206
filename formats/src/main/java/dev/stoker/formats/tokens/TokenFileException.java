package dev.stoker.formats.tokens;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;

/**
 * A token file that cannot be read as tokens; the message names the file and what was wrong. A
 * {@link DataFormatException} about the file as a whole (unchecked: it was an
 * {@link java.io.IOException} before).
 */
public final class TokenFileException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file the token file
     * @param what what was wrong, for a person
     */
    public TokenFileException(String file, String what) {
        super(file, DataPosition.wholeFile(), what);
    }
}
