package dev.stoker.formats.npy;

import java.io.IOException;

/**
 * A {@code .npy} file that cannot be read: not a {@code .npy} file, truncated, a header that does
 * not parse, or a dtype or layout Stoker does not read. The message names the file and says what
 * was wrong and where.
 */
public final class NpyFormatException extends IOException {
    private final String source;

    public NpyFormatException(String source, String detail) {
        super(source + ": " + detail);
        this.source = source;
    }

    /** The file (or other source) that was being read. */
    public String source() {
        return source;
    }
}
