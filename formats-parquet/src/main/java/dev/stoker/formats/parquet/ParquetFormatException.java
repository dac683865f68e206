package dev.stoker.formats.parquet;

import dev.stoker.data.DataFormatException;

/**
 * A Parquet file that cannot be read as it claims: a damaged footer or page, a size that does not
 * add up or is too large to allocate, a codec the reader lacks, or a value that cannot be given in
 * the form asked for (a null in a column filled into a batch). The message names the file and,
 * where it applies, the row group, the column and the row.
 *
 * <pre>{@code
 * try (ParquetDataset ds = ParquetDataset.open(Path.of("data/train.parquet"))) { ... }
 * catch (ParquetFormatException e) { log.error("bad Parquet data: {}", e.getMessage()); }
 * }</pre>
 *
 * <p>A {@link DataFormatException}: its source is the file the message starts with, and the place
 * in the file is given in the message's words ({@link dev.stoker.data.DataPosition.InMessage}).
 */
public final class ParquetFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /** @param message the whole message, starting with the file it is about: {@code "FILE: what"} */
    public ParquetFormatException(String message) {
        super(message, null);
    }

    /**
     * @param message the whole message, starting with the file it is about: {@code "FILE: what"}
     * @param cause   the failure that revealed it
     */
    public ParquetFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
