package dev.stoker.spark;

import dev.stoker.formats.tar.SampleKeys;
import dev.stoker.formats.tar.ShardIndex;
import dev.stoker.formats.tar.ShardWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.Row;

/**
 * The executor's half of {@link ShardPacker}: writes one partition's rows, in order, through
 * {@link ShardWriter} into a staging folder of its own task attempt, then moves the finished shards
 * (the {@code .idx} first, so that a shard never appears without its index) to their final names.
 * A failed attempt leaves nothing under a final name that its retry would not write again; two
 * attempts of one partition (a retry, a speculative copy) never write the same file at once.
 */
final class PartitionPacker implements Function2<Integer, Iterator<Row>, Iterator<PartitionSummary>> {
    private static final long serialVersionUID = 1L;

    private final PackPlan plan;

    PartitionPacker(PackPlan plan) {
        this.plan = plan;
    }

    @Override
    public Iterator<PartitionSummary> call(Integer partition, Iterator<Row> rows) {
        Path out = Path.of(plan.outputDir());
        TaskContext task = TaskContext.get();
        long attempt = task == null ? ProcessHandle.current().pid() : task.taskAttemptId();
        Path staging = out.resolve(PackPlan.STAGING).resolve("partition-" + partition + "-attempt-" + attempt);
        List<String> reasons = new ArrayList<>();
        long skipped = 0;
        try {
            // The staging path goes into a format pattern: a '%' in a folder name must stay a '%'.
            // Its names end as the final ones do, so that .gz and .tgz shards are written compressed.
            String last = plan.names().name(0, 0);
            String ending = last.endsWith(".gz") || last.endsWith(".tgz") ? ".tar.gz" : ".tar";
            ShardWriter.Builder builder = ShardWriter.builder(staging.toString().replace("%", "%%") + "/shard-%06d" + ending)
                    .maxSamples(plan.maxSamples()).maxBytes(plan.maxBytes()).writeIndex(plan.writeIndex());
            ShardWriter writer = builder.build();
            try (writer) { // closed without its commit (a bad row, a failed write), it deletes what it wrote
                String previous = null;
                while (rows.hasNext()) {
                    Row row = rows.next();
                    Object rawKey = row.get(plan.keyIndex());
                    String key = rawKey == null ? null : rawKey.toString();
                    String problem = problem(key, previous, row);
                    if (problem != null) {
                        if (plan.badSamples() == BadSamples.FAIL) {
                            throw new BadSampleException(partition, key, problem);
                        }
                        skipped++;
                        if (reasons.size() < PartitionSummary.MAX_REASONS) {
                            reasons.add(BadSampleException.describe(partition, key, problem));
                        }
                        continue;
                    }
                    Map<String, byte[]> fields = new LinkedHashMap<>();
                    for (PayloadColumn c : plan.payloads()) {
                        fields.put(c.extension(), c.encode(row.get(c.index())));
                    }
                    writer.write(key, fields);
                    previous = key;
                }
                writer.commit(); // finishes the last shard, so that shards() lists them all
            }
            List<ShardWriter.ShardInfo> written = writer.shards();
            List<ShardFile> shards = new ArrayList<>(written.size());
            for (int i = 0; i < written.size(); i++) {
                ShardWriter.ShardInfo info = written.get(i);
                Path target = out.resolve(plan.names().name(partition, i));
                Path sidecar = ShardIndex.sidecar(info.path());
                if (plan.writeIndex() && Files.exists(sidecar)) { // a gzip-compressed shard has none
                    move(sidecar, ShardIndex.sidecar(target));
                }
                move(info.path(), target);
                shards.add(new ShardFile(target.toString(), info.samples(), info.bytes()));
            }
            return List.of(new PartitionSummary(partition, shards, skipped, reasons)).iterator();
        } finally {
            deleteQuietly(staging);
        }
    }

    /** Why this row cannot be written as a sample, or null when it can. */
    private String problem(String key, String previous, Row row) {
        String bad = SampleKeys.problem(key);
        if (bad != null) {
            return bad + " (key column \"" + plan.keyColumn() + "\")";
        }
        if (key.equals(previous)) {
            return "the row before it has the same key; readers would merge the two into one sample with"
                    + " two members of each field (make keys unique, e.g. dropDuplicates(\"" + plan.keyColumn() + "\"))";
        }
        for (PayloadColumn c : plan.payloads()) {
            if (row.isNullAt(c.index())) {
                return "column \"" + c.column() + "\" (member ." + c.extension() + ") is null; every payload column"
                        + " needs a value in every row (filter the rows, or onBadSample(BadSamples.SKIP))";
            }
        }
        return null;
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // staging leftovers are harmless (the driver removes the staging folder at the end);
            // do not hide the failure that brought us here
        }
    }
}
