package dev.stoker.formats.parquet;

import java.io.IOException;
import java.nio.file.Path;

/** A read of a Parquet file ended before the size it had when it was opened: it was cut short since. */
final class FileCutShortException extends IOException {
    private final transient Path file;
    private final long openedSize;
    private final long currentSize;

    FileCutShortException(Path file, long openedSize, long currentSize, long at) {
        super(file + ": ends at byte " + at + ", but was " + openedSize + " bytes when it was opened (now "
                + currentSize + "): it was cut short while it was being read");
        this.file = file;
        this.openedSize = openedSize;
        this.currentSize = currentSize;
    }

    Path file() {
        return file;
    }

    long openedSize() {
        return openedSize;
    }

    long currentSize() {
        return currentSize;
    }
}
