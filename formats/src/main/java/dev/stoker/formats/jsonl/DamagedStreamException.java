package dev.stoker.formats.jsonl;

import java.io.IOException;

/** The decompressor met damage in a compressed JSONL file (not the disk: that is a plain IOException). */
final class DamagedStreamException extends IOException {
    DamagedStreamException(String why, Throwable cause) {
        super(why, cause);
    }
}
