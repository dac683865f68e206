/**
 * Parquet files, folders of them and Hugging Face dataset splits as map-style datasets: rows with
 * typed getters ({@link dev.stoker.formats.parquet.ParquetDataset}, {@link dev.stoker.formats.parquet.ParquetRow}),
 * numeric and fixed-length list columns filled straight into batches
 * ({@link dev.stoker.formats.parquet.ParquetTensorDataset}), and a row-group-aware shuffle
 * ({@link dev.stoker.formats.parquet.RowGroupShuffleSampler}).
 *
 * <pre>{@code
 * try (ParquetDataset ds = ParquetDataset.builder(ParquetFiles.huggingFace(root, "train"))
 *         .columns("text", "input_ids").build()) {
 *     ParquetRow r = ds.get(0);
 *     System.out.println(r.getString("text") + " " + r.getIntList("input_ids").length);
 * }
 * }</pre>
 *
 * <h2>The reader: Hardwood</h2>
 * Pages are decoded by Hardwood ({@code dev.hardwood:hardwood-core}), chosen over parquet-java and
 * Arrow Java because:
 * <ul>
 * <li>it has no mandatory dependency (a 650 KB jar; snappy-java and zstd-jni are added here for
 *     the codecs Hugging Face and Spark write, gzip is built in), where parquet-java's reader
 *     ({@code parquet-hadoop} 1.18.1: 13 jars, 19 MB, before Hadoop itself, which it declares
 *     {@code provided} and its reader and codec classes still use) and Arrow Java's
 *     Parquet reader (the dataset module) is JNI over Arrow C++;</li>
 * <li>its API fits random access: a column reader over a projection, restricted to one row group
 *     by a byte-range predicate, with a batch as large as the row group, returns flat primitive
 *     arrays with per-row offsets for lists and binaries, which the fill path copies in bulk;</li>
 * <li>it reads files through memory maps and runs on Java 21+ without flags beyond native access.</li>
 * </ul>
 * Its limits, as used here: LZ4 and Brotli pages need their codec jars (not bundled: add
 * {@code at.yawk.lz4:lz4-java} or {@code com.aayushatharva.brotli4j:brotli4j} to read them); Stoker
 * reads int32, int64, float, double, strings, binaries and one level of list of numbers, and refuses
 * other column types by name (booleans, int96, fixed-length binaries, maps, nested structs of lists).
 */
package dev.stoker.formats.parquet;
