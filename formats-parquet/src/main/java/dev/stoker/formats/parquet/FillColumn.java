package dev.stoker.formats.parquet;

/**
 * A numeric column written straight into the batch by {@link ParquetTensorDataset}: a scalar, one
 * value per row ({@code (n)} in the batch), or a list of a fixed length ({@code (n, length)}).
 *
 * <pre>{@code
 * ds.tensors(FillColumn.scalar("label"), FillColumn.list("input_ids", 2048));
 * }</pre>
 *
 * @param name   the column's name
 * @param length the list length, or 0 for a scalar column
 */
public record FillColumn(String name, int length) {
    public FillColumn {
        if (length < 0) {
            throw new IllegalArgumentException("a list length is 1 or more (0 for a scalar), not " + length);
        }
    }

    /** A scalar numeric column. */
    public static FillColumn scalar(String name) {
        return new FillColumn(name, 0);
    }

    /** A list column whose every row holds exactly {@code length} values. */
    public static FillColumn list(String name, int length) {
        if (length < 1) {
            throw new IllegalArgumentException("a list column is filled with 1 or more values per row, not " + length);
        }
        return new FillColumn(name, length);
    }
}
