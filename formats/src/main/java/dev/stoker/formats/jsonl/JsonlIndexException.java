package dev.stoker.formats.jsonl;

import java.io.IOException;

/**
 * A JSONL file that cannot be indexed or whose line index cannot be used: a damaged sidecar, a
 * sidecar made for another version of the data file, a compressed file asked for random access.
 * The message names the file and says what to do.
 */
public final class JsonlIndexException extends IOException {
    public JsonlIndexException(String message) {
        super(message);
    }
}
