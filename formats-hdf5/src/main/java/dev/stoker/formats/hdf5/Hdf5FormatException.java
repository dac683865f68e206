package dev.stoker.formats.hdf5;

/**
 * An HDF5 file that cannot be read as asked: truncated, a dataset missing, an unsupported element
 * type, datasets of different lengths. The message names the file and the dataset.
 *
 * <pre>{@code
 * try (var ds = Hdf5Dataset.open(path, "data", "labels")) { ... }
 * catch (Hdf5FormatException e) { log.error(e.getMessage()); }   // "data.h5: dataset 'data' ..."
 * }</pre>
 */
public final class Hdf5FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Hdf5FormatException(String message) {
        super(message);
    }

    public Hdf5FormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
