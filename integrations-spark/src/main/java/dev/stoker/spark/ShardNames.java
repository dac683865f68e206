package dev.stoker.spark;

import java.io.Serializable;
import java.util.IllegalFormatException;
import java.util.Locale;

/**
 * How the shards of a run are named: {@code String.format(pattern, partition, shard)}, the Spark
 * partition index first and the shard's number within its partition second, both from 0. The
 * default {@code part-%05d-%06d.tar} gives {@code part-00003-000000.tar}, {@code part-00003-000001.tar},
 * ... for partition 3 (wider numbers past 99999, as {@code %05d} does). Because every partition
 * has its own first number, partitions never write to the same name, and a run over the same
 * partitions names its shards the same way every time.
 *
 * @param pattern a {@link String#format} pattern with two integer conversions
 */
record ShardNames(String pattern) implements Serializable {

    ShardNames {
        String[] probes;
        try {
            probes = new String[] {
                format(pattern, 0, 0), format(pattern, 0, 1), format(pattern, 1, 0),
                format(pattern, 1, 11), format(pattern, 11, 1)
            };
        } catch (IllegalFormatException e) {
            throw new IllegalArgumentException("shard name pattern \"" + pattern + "\" is not a format with two"
                    + " numbers (partition, then shard), like train-%05d-%06d.tar: " + e.getMessage(), e);
        }
        for (int i = 0; i < probes.length; i++) {
            for (int j = i + 1; j < probes.length; j++) {
                if (probes[i].equals(probes[j])) {
                    throw new IllegalArgumentException("shard name pattern \"" + pattern + "\" gives two shards the"
                            + " same name (\"" + probes[i] + "\"): it needs the partition and the shard number,"
                            + " apart, like train-%05d-%06d.tar");
                }
            }
        }
        if (probes[0].isEmpty() || probes[0].contains("/") || probes[0].endsWith(".idx")) {
            throw new IllegalArgumentException("shard name pattern \"" + pattern + "\" must name a file in the output"
                    + " directory (no '/', not ending in .idx), like train-%05d-%06d.tar");
        }
    }

    /** The file name of shard {@code shard} of partition {@code partition}. */
    String name(int partition, int shard) {
        return format(pattern, partition, shard);
    }

    private static String format(String pattern, int partition, int shard) {
        return String.format(Locale.ROOT, pattern, partition, shard);
    }
}
