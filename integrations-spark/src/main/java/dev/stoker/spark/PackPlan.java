package dev.stoker.spark;

import java.io.Serializable;
import java.util.List;

/**
 * Everything an executor needs to pack its partition, checked on the driver and shipped with the
 * task: plain strings and numbers, since {@link java.nio.file.Path} is not serializable.
 *
 * @param outputDir  the absolute output directory, as every executor sees it
 * @param names      how shards are named
 * @param keyIndex   the key column's position in the row
 * @param keyColumn  the key column's name (for messages)
 * @param payloads   the payload columns, in member order
 * @param maxSamples at most this many samples per shard
 * @param maxBytes   at most this many bytes per shard (a larger sample gets a shard of its own)
 * @param writeIndex whether each shard gets its {@code .idx} sidecar
 * @param badSamples what a bad row does
 */
record PackPlan(String outputDir, ShardNames names, int keyIndex, String keyColumn, List<PayloadColumn> payloads,
                long maxSamples, long maxBytes, boolean writeIndex, BadSamples badSamples) implements Serializable {

    /** The folder under the output directory where task attempts write before their shards are moved in place. */
    static final String STAGING = "_stoker_staging";

    PackPlan {
        payloads = List.copyOf(payloads);
    }
}
