package dev.stoker.spark;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link ShardPacker#pack} run wrote, gathered on the driver: every partition's shards,
 * sorted by partition. {@link #shardPaths()} is the list to hand to Stoker's readers (the shard
 * count varies by partition, so one brace pattern rarely names them all):
 *
 * <pre>{@code
 * PackSummary s = packer.pack(df);
 * System.out.println(s);   // packed 1281167 samples into 1282 shards (140.3 GiB) from 64 partitions
 * TarShardDataset ds = TarShardDataset.builder(s.shardPaths()).shuffleShards(true).build();
 * }</pre>
 *
 * @param partitions one entry per partition, including those that wrote nothing
 */
public record PackSummary(List<PartitionSummary> partitions) {

    public PackSummary {
        partitions = partitions.stream().sorted(Comparator.comparingInt(PartitionSummary::partition)).toList();
    }

    /** Every shard, by partition then shard number. */
    public List<ShardFile> shardFiles() {
        return partitions.stream().flatMap(p -> p.shards().stream()).toList();
    }

    /** Every shard's path, by partition then shard number. */
    public List<String> shardPaths() {
        return shardFiles().stream().map(ShardFile::path).toList();
    }

    /** Shards written. */
    public long shards() {
        return partitions.stream().mapToLong(p -> p.shards().size()).sum();
    }

    /** Samples written. */
    public long samples() {
        return partitions.stream().mapToLong(PartitionSummary::samples).sum();
    }

    /** Shard bytes written (tar padding included; the {@code .idx} sidecars not). */
    public long bytes() {
        return partitions.stream().mapToLong(PartitionSummary::bytes).sum();
    }

    /** Rows left out under {@link BadSamples#SKIP}. */
    public long skipped() {
        return partitions.stream().mapToLong(PartitionSummary::skipped).sum();
    }

    /** One line: samples, shards, bytes, partitions, and what was skipped (with the first reason). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "packed %d samples into %d shard%s (%s) from %d partition%s", samples(), shards(),
                shards() == 1 ? "" : "s", size(bytes()), partitions.size(), partitions.size() == 1 ? "" : "s"));
        if (skipped() > 0) {
            sb.append("; skipped ").append(skipped()).append(skipped() == 1 ? " row" : " rows");
            partitions.stream().flatMap(p -> p.reasons().stream()).findFirst()
                    .ifPresent(r -> sb.append(", e.g. ").append(r));
        }
        return sb.toString();
    }

    private static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
