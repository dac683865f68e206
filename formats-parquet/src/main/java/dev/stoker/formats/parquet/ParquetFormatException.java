package dev.stoker.formats.parquet;

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
 */
public final class ParquetFormatException extends RuntimeException {
    public ParquetFormatException(String message) {
        super(message);
    }

    public ParquetFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
