package dev.stoker.formats.tar;

import java.util.Arrays;

/**
 * Where each shard's samples start in a dataset that lays shards end to end: global sample
 * {@code i} is sample {@code i - start(s)} of the shard {@code s} whose range holds it. Found by
 * binary search; empty shards are passed over.
 */
final class ShardOffsets {
    private final long[] starts;

    ShardOffsets(ShardIndex[] indices) {
        this.starts = new long[indices.length + 1];
        for (int s = 0; s < indices.length; s++) {
            starts[s + 1] = starts[s] + indices[s].sampleCount();
        }
    }

    /** All the shards' samples. */
    long size() {
        return starts[starts.length - 1];
    }

    /** The first global index of shard {@code s}. */
    long start(int s) {
        return starts[s];
    }

    /** The shard holding global sample {@code index}, in {@code [0, size())}. */
    int shardOf(long index) {
        int pos = Arrays.binarySearch(starts, index);
        int s = pos >= 0 ? pos : -pos - 2;
        while (index >= starts[s + 1]) { // empty shards share their start with the next one
            s++;
        }
        return s;
    }
}
