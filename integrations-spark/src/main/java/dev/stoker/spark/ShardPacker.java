package dev.stoker.spark;

import dev.stoker.formats.tar.ShardIndex;
import dev.stoker.formats.tar.ShardOutput;
import dev.stoker.formats.tar.ShardSetManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Packs a Spark {@code Dataset<Row>} into WebDataset tar shards, each with the {@code .idx}
 * sidecar Stoker's {@code IndexedTarDataset} uses: one sample per row, its key from a string
 * column, one member {@code <key>.<extension>} per payload column (binary as is, strings as UTF-8,
 * integers as decimal text like WebDataset's {@code cls}). Stoker's tar datasets, Python's
 * {@code webdataset} and {@code tarfile} read the shards.
 *
 * <p>Every partition writes its own shards, rows in partition order, through Stoker's
 * {@code ShardWriter} (a new shard after {@link Builder#maxSamples} samples or before
 * {@link Builder#maxBytes} would be passed), named {@code String.format(pattern, partition, shard)}:
 * with the default {@code part-%05d-%06d.tar}, partition 3 writes {@code part-00003-000000.tar},
 * {@code part-00003-000001.tar}, ... Names are unique across partitions and the same on every run
 * over the same partitions. The per-partition summaries come back to the driver as a
 * {@link PackSummary}.
 *
 * <pre>{@code
 * // spark-submit --class PackImages --master spark://head:7077 \
 * //   --jars stoker-core.jar,stoker-formats.jar,stoker-spark.jar app.jar in.parquet /mnt/shared/imagenet
 * public final class PackImages {
 *     public static void main(String[] args) {
 *         SparkSession spark = SparkSession.builder().appName("pack").getOrCreate();
 *         Dataset<Row> rows = spark.read().parquet(args[0])   // id: long, image: binary, label: int
 *                 .select(format_string("%09d", col("id")).as("key"), col("image"), col("label"));
 *         PackSummary summary = ShardPacker.builder(args[1])
 *                 .key("key").field("jpg", "image").field("cls", "label")
 *                 .shardName("train-%05d-%06d.tar").maxSamples(5000).maxBytes(1L << 30)
 *                 .build()
 *                 .pack(rows.repartition(64));
 *         System.out.println(summary); // packed 1281167 samples into 320 shards (140.1 GiB) from 64 partitions
 *     }
 * }
 * }</pre>
 *
 * <p>NOTE: the output is a {@link java.nio.file.Path} that every executor opens itself: a local
 * folder in local mode, and on a cluster a shared file system mounted at the same place on every
 * node (NFS, Lustre, a FUSE mount of an object store such as s3fs or gcsfuse). {@code s3a://} and
 * other Hadoop URLs are refused; {@code file:} URIs are accepted. Executors run Stoker's classes,
 * so they need JDK 25 (Spark 4.2 runs on it).
 *
 * <p>NOTE: each task attempt writes under {@code <out>/_stoker_staging/} and moves finished shards
 * to their names, so retries and speculative copies never write one file at once; but the shards
 * of a partition are only reproducible when its rows are (sort within partitions, or read from
 * files, before packing), and a retried partition whose rows changed may leave shards of both
 * attempts.
 *
 * <p>The set is published whole or not at all: the driver marks it in progress before the job
 * ({@code part.stoker-manifest.part} for the default names, see {@code ShardSetManifest}) and,
 * once every partition succeeded, writes its manifest, last. Stoker's readers refuse the shards
 * while the mark is there, so a failed or killed job leaves nothing that reads as whole. A run
 * refuses to start when shards of the pattern (or their manifest, or a mark) are already there,
 * unless {@link Builder#overwrite} says so; then, at the end, what the old set had that the new
 * one does not (names of the pattern and their {@code .idx}) is deleted. The driver must see the
 * output folder, as the executors do.
 *
 * <p>Every partition ends with a partly filled shard, so choose the partition count from the
 * shard size: {@code repartition(n)} with each partition holding several shards' worth of rows
 * (or one partition per wanted shard with no limits set).
 */
public final class ShardPacker {
    private final Path outputDir;
    private final String keyColumn;
    private final Map<String, String> fields;
    private final ShardNames names;
    private final long maxSamples;
    private final long maxBytes;
    private final boolean writeIndex;
    private final BadSamples badSamples;
    private final boolean overwrite;

    private ShardPacker(Builder b) {
        this.outputDir = b.outputDir;
        this.keyColumn = b.keyColumn;
        this.fields = new LinkedHashMap<>(b.fields);
        this.names = b.names;
        this.maxSamples = b.maxSamples;
        this.maxBytes = b.maxBytes;
        this.writeIndex = b.writeIndex;
        this.badSamples = b.badSamples;
        this.overwrite = b.overwrite;
    }

    /**
     * A packer writing into {@code outputDir}: a path (made absolute on the driver, so give one that
     * every executor sees at the same place) or a {@code file:} URI.
     */
    public static Builder builder(String outputDir) {
        return new Builder(outputDir);
    }

    /**
     * Packs every row of {@code data}, one Spark job: partition {@code p} writes the shards named
     * with {@code p}. Waits for the job and returns what was written.
     *
     * @throws IllegalArgumentException a column missing or of a type that cannot be written
     * @throws BadSampleException       a row that cannot be a sample, under {@link BadSamples#FAIL}
     * @throws IllegalStateException    shards of an earlier run are in the way, without {@code overwrite}
     */
    public PackSummary pack(Dataset<Row> data) {
        PackPlan plan = plan(data.schema());
        Path out = Path.of(plan.outputDir());
        // the mark before any executor writes: readers refuse the pattern's shards until the manifest
        ShardOutput set = ShardOutput.open(out.toString().replace("%", "%%") + "/" + plan.names().pattern(), overwrite,
                "stoker ShardPacker (Spark)");
        try {
            List<PartitionSummary> parts = data.javaRDD().mapPartitionsWithIndex(new PartitionPacker(plan), false).collect();
            PackSummary summary = new PackSummary(parts);
            List<ShardSetManifest.Shard> listed = new ArrayList<>();
            for (PartitionSummary p : parts) {
                for (ShardFile f : p.shards()) {
                    Path shard = Path.of(f.path());
                    listed.add(new ShardSetManifest.Shard(shard.getFileName().toString(), f.samples(), f.bytes(),
                            Files.exists(ShardIndex.sidecar(shard))));
                }
            }
            set.commit(listed);
            return summary;
        } catch (Exception e) {
            // Spark wraps the executor's exception in its own SparkException (a checked exception Scala
            // throws undeclared: "Job aborted due to stage failure ..."); hand the caller the row's
            // error, with Spark's as its cause
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof BadSampleException bad) {
                    throw new BadSampleException(bad.getMessage(), bad.partition(), bad.key(), e);
                }
            }
            throw ShardPacker.<RuntimeException>rethrow(e);
        } finally {
            deleteStaging(out.resolve(PackPlan.STAGING));
        }
    }

    /** Throws {@code e} as it is: Spark's own exception type stays what Spark users catch. */
    @SuppressWarnings("unchecked")
    private static <E extends Exception> E rethrow(Exception e) throws E {
        throw (E) e;
    }

    /** The executors' instructions: every column looked up and typed here, before a task starts. */
    PackPlan plan(StructType schema) {
        int keyIndex = indexOf(schema, keyColumn, "key");
        StructField keyField = schema.fields()[keyIndex];
        if (!(keyField.dataType() instanceof StringType)) {
            throw new IllegalArgumentException("key column \"" + keyColumn + "\" is "
                    + keyField.dataType().simpleString() + "; keys are strings (e.g. format_string(\"%09d\", col(\""
                    + keyColumn + "\")), or cast(\"string\"))");
        }
        Map<String, String> members = fields;
        if (members.isEmpty()) {
            // no mapping given: every other column, named by its own name
            members = new LinkedHashMap<>();
            for (String name : schema.fieldNames()) {
                if (!name.equals(keyColumn)) {
                    String bad = PayloadColumn.badExtension(name);
                    if (bad != null) {
                        throw new IllegalArgumentException("column \"" + name + "\" cannot be a member's extension ("
                                + bad + "); map it with field(extension, \"" + name + "\")");
                    }
                    members.put(name, name);
                }
            }
            if (members.isEmpty()) {
                throw new IllegalArgumentException("there is no payload column: the data has only the key column \""
                        + keyColumn + "\"");
            }
        }
        List<PayloadColumn> payloads = new ArrayList<>();
        for (Map.Entry<String, String> f : members.entrySet()) {
            int index = indexOf(schema, f.getValue(), "payload");
            StructField field = schema.fields()[index];
            PayloadColumn.Encoding encoding = PayloadColumn.Encoding.of(field.dataType());
            if (encoding == null) {
                throw new IllegalArgumentException("column \"" + f.getValue() + "\" (member ." + f.getKey() + ") is "
                        + field.dataType().simpleString() + "; payloads are binary, string or integer columns"
                        + " (convert others first, e.g. to_json(col(\"" + f.getValue() + "\")) or cast(\"string\"))");
            }
            payloads.add(new PayloadColumn(f.getKey(), f.getValue(), index, encoding));
        }
        return new PackPlan(outputDir.toString(), names, keyIndex, keyColumn, payloads,
                maxSamples, maxBytes, writeIndex, badSamples);
    }

    private static int indexOf(StructType schema, String column, String role) {
        String[] names = schema.fieldNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException("there is no " + role + " column \"" + column + "\"; the columns are "
                + String.join(", ", names));
    }

    private static void deleteStaging(Path staging) {
        if (!Files.exists(staging)) {
            return;
        }
        try (Stream<Path> all = Files.walk(staging)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a leftover staging folder holds no shard a reader would take (they look for the final names)
        }
    }

    /** Settings of a {@link ShardPacker}; only the output folder is required. */
    public static final class Builder {
        private final Path outputDir;
        private String keyColumn = "key";
        private final Map<String, String> fields = new LinkedHashMap<>();
        private ShardNames names = new ShardNames("part-%05d-%06d.tar");
        private long maxSamples = Long.MAX_VALUE;
        private long maxBytes = Long.MAX_VALUE;
        private boolean writeIndex = true;
        private BadSamples badSamples = BadSamples.FAIL;
        private boolean overwrite;

        private Builder(String outputDir) {
            if (outputDir == null || outputDir.isBlank()) {
                throw new IllegalArgumentException("the output folder is empty");
            }
            this.outputDir = resolve(outputDir);
        }

        private static Path resolve(String dir) {
            int colon = dir.indexOf("://");
            if (dir.startsWith("file:")) {
                return Path.of(URI.create(dir)).toAbsolutePath().normalize();
            }
            if (colon > 0 && dir.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
                throw new IllegalArgumentException("output \"" + dir + "\" is a URL: the shards are written with"
                        + " java.nio to a file system every executor mounts (NFS, Lustre, or an object store mounted"
                        + " with s3fs, gcsfuse, ...); give that mount's path");
            }
            return Path.of(dir).toAbsolutePath().normalize();
        }

        /** The key column, a string (default {@code key}): each row's sample key, e.g. {@code n01440764/0001}. */
        public Builder key(String column) {
            this.keyColumn = column;
            return this;
        }

        /**
         * A member per sample with this extension, from this column, e.g. {@code field("jpg", "image")},
         * {@code field("cls", "label")}; members in the order of the calls. Without any, every column but
         * the key is a member named by its column.
         */
        public Builder field(String extension, String column) {
            String bad = PayloadColumn.badExtension(extension);
            if (bad != null) {
                throw new IllegalArgumentException("\"" + extension + "\" is not an extension: " + bad);
            }
            if (fields.containsKey(extension)) {
                throw new IllegalArgumentException("extension \"" + extension + "\" is given twice (columns \""
                        + fields.get(extension) + "\" and \"" + column + "\")");
            }
            fields.put(extension, column);
            return this;
        }

        /**
         * The shards' file name: {@code String.format(pattern, partition, shard)}, e.g. the default
         * {@code part-%05d-%06d.tar} or {@code train-%05d-%06d.tar}.
         */
        public Builder shardName(String pattern) {
            this.names = new ShardNames(pattern);
            return this;
        }

        /** At most this many samples per shard (default: no limit). */
        public Builder maxSamples(long n) {
            if (n < 1) {
                throw new IllegalArgumentException("at most " + n + " samples per shard: must be at least 1");
            }
            this.maxSamples = n;
            return this;
        }

        /** At most this many bytes per shard, unless a single sample is larger (default: no limit). */
        public Builder maxBytes(long n) {
            if (n < 1) {
                throw new IllegalArgumentException("at most " + n + " bytes per shard: must be at least 1");
            }
            this.maxBytes = n;
            return this;
        }

        /** Write each shard's {@code .idx} sidecar (default: yes). */
        public Builder writeIndex(boolean on) {
            this.writeIndex = on;
            return this;
        }

        /** What a row that cannot be a sample does (default {@link BadSamples#FAIL}). */
        public Builder onBadSample(BadSamples policy) {
            this.badSamples = policy;
            return this;
        }

        /** Write over shards of an earlier run with the same names (default: refuse). */
        public Builder overwrite(boolean on) {
            this.overwrite = on;
            return this;
        }

        public ShardPacker build() {
            return new ShardPacker(this);
        }
    }
}
