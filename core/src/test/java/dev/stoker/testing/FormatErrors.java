package dev.stoker.testing;

import dev.stoker.data.DataFormatException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What the corruption fuzzes accept as a refusal: one of the reader's format errors, whose message
 * names the file and, for a read, where in it (row, line, sequence, document, sample).
 *
 * <p>The one place that decides which errors are format errors: the family every reader's bad
 * data belongs to, {@link DataFormatException}, and whatever else a caller names for a reader
 * that still reports some damage otherwise (JSONL's gzip stream, as an I/O error).
 */
public final class FormatErrors {
    /** How a read error says where the damage is. */
    public static final Pattern POSITION = Pattern.compile(
            "(row|row group|line|sequence|document|sample|window|record|key|byte|offset|index|member|shard) [0-9]+");

    private FormatErrors() {
    }

    /** Whether {@code e} is a {@link DataFormatException} or one of {@code readerTypes}. */
    public static boolean isFormatError(Throwable e, Class<?>... readerTypes) {
        if (e instanceof DataFormatException) {
            return true;
        }
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
        // one error family: the file is a field as well as words, so the loader reports it alike
        if (e instanceof DataFormatException d
                && (!d.source().contains(file.toString()) || !m.contains(d.source()) || d.position() == null)) {
            throw new IllegalStateException("a format error whose source field '" + d.source() + "' is not "
                    + file + ": " + m, e);
        }
        if (position && !POSITION.matcher(m).find()) {
            throw new IllegalStateException("a read error that does not say where in " + file + ": " + m, e);
        }
    }
}
