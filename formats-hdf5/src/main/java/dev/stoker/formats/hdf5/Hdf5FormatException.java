package dev.stoker.formats.hdf5;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

/**
 * An HDF5 file that cannot be read as asked: truncated, a dataset missing, an unsupported element
 * type, datasets of different lengths. The message names the file and the dataset.
 *
 * <pre>{@code
 * try (var ds = Hdf5Dataset.open(path, "data", "labels")) { ... }
 * catch (Hdf5FormatException e) { log.error(e.getMessage()); }   // "data.h5: dataset 'data' ..."
 * }</pre>
 *
 * <p>A {@link DataFormatException}: its source is the file the message starts with; a row that
 * cannot be read is at {@code DataPosition.row(r)}, other places (an array, a chunk) are given in
 * the message's words ({@link DataPosition.InMessage}).
 */
public final class Hdf5FormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * A row that cannot be read.
     *
     * @param file  the HDF5 file
     * @param row   the row (index on the first axis)
     * @param where the place for the message, starting with the file
     * @param what  what was wrong, for a person
     * @param cause the failure that revealed it, or null
     */
    Hdf5FormatException(Path file, long row, String where, String what, Throwable cause) {
        super(where + ": " + what, file.toString(), DataPosition.row(row), what, cause);
    }

    /** @param message the whole message, starting with the file it is about: {@code "FILE: what"} */
    public Hdf5FormatException(String message) {
        super(message, null);
    }

    /**
     * @param message the whole message, starting with the file it is about: {@code "FILE: what"}
     * @param cause   the failure that revealed it
     */
    public Hdf5FormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
