package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * A line of a JSONL file that cannot be read: not valid JSON, not an object, without the field
 * asked for, longer than the limit, or where a gzip stream's damage (or its early end) was met. The message names the file, the line (from 1) and, for
 * bad JSON, the byte column (from 1) and what was expected there: a {@link DataFormatException} at
 * the line.
 */
public final class JsonlLineException extends DataFormatException {
    private final Path file;
    private final long line;

    public JsonlLineException(Path file, long line, String what) {
        this(file, line, what, null);
    }

    /**
     * @param file  the file
     * @param line  the line, from 1
     * @param what  what was wrong, for a person
     * @param cause the failure that revealed it (a gzip stream's {@code ZipException}), or null
     */
    public JsonlLineException(Path file, long line, String what, Throwable cause) {
        super(file + ": line " + line + ": " + what, file.toString(), DataPosition.line(line), what, cause);
        this.file = file;
        this.line = line;
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** The line, counted from 1. */
    public long line() {
        return line;
    }
}
