package dev.stoker.formats.parquet;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.nio.file.Path;

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
 * <p>A {@link DataFormatException}: its source is the file the message starts with; a bad value is
 * at {@code DataPosition.row(r)}, its row in that file (the message names the row group and the
 * row within it), other places are given in the message's words ({@link DataPosition.InMessage}).
 */
public final class ParquetFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * A bad value.
     *
     * @param file  the Parquet file
     * @param row   the row in that file, from 0
     * @param where the place for the message, starting with the file
     * @param what  what was wrong, for a person
     */
    ParquetFormatException(Path file, long row, String where, String what) {
        super(where + ": " + what, file.toString(), DataPosition.row(row), what, null);
    }

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
