package dev.stoker.spark;

import java.io.Serializable;

/**
 * One shard a partition wrote (its {@code .idx} sidecar lies beside it).
 *
 * @param path    where it is, as the executor named it
 * @param samples how many samples it holds
 * @param bytes   its length in bytes
 */
public record ShardFile(String path, long samples, long bytes) implements Serializable {
}
