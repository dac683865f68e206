package dev.stoker.memory;

import java.io.IOError;

/**
 * Bytes read from a memory-mapped file were no longer there: the file was truncated (or rewritten
 * in place) after it was mapped, and a read past its new end faulted (the JVM's nameless
 * {@link InternalError}; see {@link MappedReads}). The message says what was being read and, where
 * the reader knows it, which file; the formats' {@code MappedFileChangedError} adds the file and
 * its sizes. The JVM is unharmed, but the map cannot be read again where the file was cut: reopen
 * the dataset once the file is whole.
 *
 * <p>An {@link IOError}, as the fault it reports was an {@code Error}: the data under the reader
 * failed, not one bad sample, so a loader that skips bad samples does not skip the rest of the
 * file one sample at a time; it fails at the batch that met it.
 */
public class MappedDataChangedError extends IOError {
    private final String message;

    /**
     * @param message what was being read and what changed, for a person
     * @param fault   the JVM's error (or the short read) that reported it
     */
    public MappedDataChangedError(String message, Throwable fault) {
        super(fault);
        this.message = message;
    }

    @Override
    public String getMessage() {
        return message;
    }
}
