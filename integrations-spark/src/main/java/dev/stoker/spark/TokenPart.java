package dev.stoker.spark;

import java.io.Serializable;

/**
 * What one partition of a {@link TokenPacker} job wrote: its Megatron shard's prefix and counts.
 *
 * @param partition the partition
 * @param prefix    the shard's path without {@code .bin}/{@code .idx}
 * @param documents documents written (rows with a text)
 * @param tokens    tokens written, end-of-text tokens included
 * @param nulls     rows whose text was null, skipped
 */
public record TokenPart(int partition, String prefix, long documents, long tokens, long nulls) implements Serializable {
}
