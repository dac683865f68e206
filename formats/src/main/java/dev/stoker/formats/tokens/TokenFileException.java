package dev.stoker.formats.tokens;

import java.io.IOException;

/** A token file that cannot be read as tokens; the message names the file and what was wrong. */
public final class TokenFileException extends IOException {
    public TokenFileException(String message) {
        super(message);
    }
}
