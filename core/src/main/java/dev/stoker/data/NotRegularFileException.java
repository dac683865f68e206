package dev.stoker.data;

import java.nio.file.FileSystemException;

/**
 * A data file that is not a regular file: a named pipe (FIFO), a socket, a device or a folder,
 * refused before it is opened (see {@link DataFiles}). The message names the file, what it is and
 * that a data file must be a regular file:
 *
 * <pre>
 * data/train/cat/0001.jpg: is a named pipe (FIFO), not a regular file; a data file must be a regular file
 * </pre>
 *
 * <p>It is an {@link java.io.IOException}, so that a reader reports it as it reports a file it
 * cannot open.
 */
public final class NotRegularFileException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    private final String kind;

    /**
     * @param file the file's path, as the caller named it
     * @param kind what it is instead, for a person ({@code "a named pipe (FIFO)"}, {@code "a folder"})
     */
    public NotRegularFileException(String file, String kind) {
        super(file, null, "is " + kind + ", not a regular file; a data file must be a regular file");
        this.kind = kind;
    }

    /** What the path is instead of a regular file, for a person ({@code "a named pipe (FIFO)"}). */
    public String kind() {
        return kind;
    }
}
