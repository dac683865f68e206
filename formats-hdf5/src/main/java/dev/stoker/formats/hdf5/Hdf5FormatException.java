package dev.stoker.formats.hdf5;

import dev.stoker.data.DataFormatException;

/**
 * An HDF5 file that cannot be read as asked: truncated, a dataset missing, an unsupported element
 * type, datasets of different lengths. The message names the file and the dataset.
 *
 * <pre>{@code
 * try (var ds = Hdf5Dataset.open(path, "data", "labels")) { ... }
 * catch (Hdf5FormatException e) { log.error(e.getMessage()); }   // "data.h5: dataset 'data' ..."
 * }</pre>
 *
 * <p>A {@link DataFormatException}: its source is the file the message starts with, and the place
 * in the file is given in the message's words ({@link dev.stoker.data.DataPosition.InMessage}).
 */
public final class Hdf5FormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

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
