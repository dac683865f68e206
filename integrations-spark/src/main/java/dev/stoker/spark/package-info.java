/**
 * Spark to Stoker: {@link dev.stoker.spark.ShardPacker} packs a DataFrame into WebDataset tar
 * shards with Stoker's {@code .idx} sidecars, every partition writing its own shards on its
 * executor, the summaries gathered on the driver ({@link dev.stoker.spark.PackSummary}).
 *
 * <p>Spark is a {@code provided} dependency: the cluster brings it (4.2.0 or later on JDK 25; 4.1
 * fails on JDK 25 once it touches the Hadoop file system).
 *
 * <pre>{@code
 * PackSummary s = ShardPacker.builder("/mnt/shared/shards").key("key")
 *         .field("jpg", "image").field("cls", "label").maxSamples(1000).build().pack(df);
 * }</pre>
 */
package dev.stoker.spark;
