package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * A line of a JSONL file that cannot be read: not valid JSON, not an object, without the field
 * asked for, or longer than the limit. The message names the file, the line (from 1) and, for
 * bad JSON, the byte column (from 1) and what was expected there: a {@link DataFormatException} at
 * the line.
 */
public final class JsonlLineException extends DataFormatException {
    private final Path file;
    private final long line;

    public JsonlLineException(Path file, long line, String what) {
        super(file + ": line " + line + ": " + what, file.toString(), DataPosition.line(line), what, null);
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
