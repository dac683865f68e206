package dev.stoker.testing;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What the corruption fuzzes accept as a refusal: one of the reader's format errors, whose message
 * names the file and, for a read, where in it (row, line, sequence, document, sample).
 *
 * <p>NOTE: the one place that decides which types are format errors. While each reader has its
 * own exception types, callers name them; once every reader's errors extend one family
 * ({@code DataFormatException}), {@link #isFormatError} checks for that family alone.
 */
public final class FormatErrors {
    /** How a read error says where the damage is. */
    public static final Pattern POSITION = Pattern.compile(
            "(row|row group|line|sequence|document|sample|window|record|key|byte|offset|index|member|shard) [0-9]+");

    private FormatErrors() {
    }

    /** Whether {@code e} is one of the reader's format errors ({@code readerTypes}). */
    public static boolean isFormatError(Throwable e, Class<?>... readerTypes) {
        for (Class<?> t : readerTypes) {
            if (t.isInstance(e)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns normally when {@code e} is a format error of the reader naming {@code file} (and,
     * when {@code position}, where in it); otherwise throws it on, wrapped, as the case's failure.
     */
    public static void requireNamed(Throwable e, Path file, boolean position, Class<?>... readerTypes) {
        if (!isFormatError(e, readerTypes)) {
            throw new IllegalStateException("not a format error of this reader: " + e, e);
        }
        String m = e.getMessage();
        if (m == null || !m.contains(file.toString())) {
            throw new IllegalStateException("a format error that does not name " + file + ": " + m, e);
        }
        if (position && !POSITION.matcher(m).find()) {
            throw new IllegalStateException("a read error that does not say where in " + file + ": " + m, e);
        }
    }
}
