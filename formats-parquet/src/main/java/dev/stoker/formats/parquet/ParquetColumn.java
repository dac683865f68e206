package dev.stoker.formats.parquet;

/**
 * A column a dataset reads: the name a sample knows it by (the top-level field's name, also for
 * a list, whose values Parquet keeps in a leaf {@code name.list.element}), the leaf's dotted path
 * in the file, what it holds, and whether it may be null.
 *
 * @param name     the name samples and batches use: {@code "tokens"}
 * @param path     the leaf's dotted path in the file: {@code "tokens.list.element"}
 * @param kind     what each row holds
 * @param nullable whether the schema lets a row (or a list element) be null
 */
public record ParquetColumn(String name, String path, ColumnKind kind, boolean nullable) {
}
