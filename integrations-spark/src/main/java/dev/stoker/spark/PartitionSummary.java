package dev.stoker.spark;

import java.io.Serializable;
import java.util.List;

/**
 * What one partition wrote, sent back to the driver.
 *
 * @param partition the Spark partition index (the first number in the shard names)
 * @param shards    its shards, in order
 * @param skipped   rows left out under {@link BadSamples#SKIP}
 * @param reasons   why, for the first few of them
 */
public record PartitionSummary(int partition, List<ShardFile> shards, long skipped, List<String> reasons)
        implements Serializable {
    /** Reasons kept per partition: enough to see what went wrong, not a copy of the data. */
    static final int MAX_REASONS = 5;

    public PartitionSummary {
        shards = List.copyOf(shards);
        reasons = List.copyOf(reasons);
    }

    /** Samples written. */
    public long samples() {
        return shards.stream().mapToLong(ShardFile::samples).sum();
    }

    /** Shard bytes written. */
    public long bytes() {
        return shards.stream().mapToLong(ShardFile::bytes).sum();
    }
}
