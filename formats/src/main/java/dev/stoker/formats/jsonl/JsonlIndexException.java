package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * A JSONL file that cannot be indexed or whose line index cannot be used: a damaged sidecar, a
 * sidecar made for another version of the data file, a compressed file asked for random access.
 * The message names the file and says what to do. A {@link DataFormatException} about the file as
 * a whole (unchecked: it was an {@link java.io.IOException} before).
 */
public final class JsonlIndexException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file the data file or its sidecar
     * @param what what is wrong with it and what to do, for a person: the message is
     *             {@code "FILE WHAT"}
     */
    public JsonlIndexException(Path file, String what) {
        super(file + " " + what, file.toString(), DataPosition.wholeFile(), what, null);
    }
}
