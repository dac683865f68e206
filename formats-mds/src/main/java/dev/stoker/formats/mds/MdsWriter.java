package dev.stoker.formats.mds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Writes a dataset in MosaicML Streaming's MDS format: {@code index.json} and shards
 * {@code shard.NNNNN.mds} (or {@code .mds.zstd}, {@code .mds.gz}), as Streaming's
 * {@code MDSWriter} does, so that Streaming's {@code StreamingDataset} and Stoker's
 * {@link MdsDataset} both read the result.
 *
 * <pre>{@code
 * try (MdsWriter out = MdsWriter.builder(Path.of("mds/train"))
 *         .column("jpg", "jpeg").column("cls", "int")
 *         .compression("zstd").hashes("sha1")
 *         .open()) {
 *     out.write(Map.of("jpg", Files.readAllBytes(jpegFile), "cls", 7L));
 *     out.commit();   // writes index.json; without it, close() deletes what was written
 * }
 * }</pre>
 *
 * <p>Values by encoding: {@code byte[]} or a {@code MemorySegment} for any column (taken as
 * already encoded, as Streaming takes {@code bytes}: JPEG, PNG, pickle files go in unchanged); a
 * {@code Number} for {@code int} and the scalar encodings; a {@code String} for {@code str},
 * {@code json} and the {@code str_*} encodings; a {@code Tensor} for {@code ndarray}; a
 * {@code List<byte[]>} for {@code list[jpeg]} and {@code jpeg_array}. As Streaming does, the
 * columns go in name order, and a shard ends before the sample that would take it past the size
 * limit.
 *
 * <p>The dataset is published whole or not at all: the files of a shard are complete when they
 * appear (written aside, then renamed), and {@code index.json}, which readers (Streaming's and
 * Stoker's) need before they read anything, is written last, by {@link #commit()}. A
 * {@link #close()} without a commit (an exception in a try-with-resources block) aborts: it
 * deletes every file the writer wrote, and writes no index. A writer killed before its commit
 * leaves shards without {@code index.json}, which no reader takes for a dataset.
 */
public final class MdsWriter implements AutoCloseable {
    /** Streaming's default shard size limit: 64 MiB. */
    public static final long DEFAULT_SIZE_LIMIT = 1L << 26;

    /** MDS offsets are u32: no shard may reach 4 GiB. */
    static final long MAX_SHARD_BYTES = 0xFFFF_FFFFL;

    private final Path dir;
    private final List<String> names;
    private final List<MdsEncoding> encodings;
    private final List<Integer> sizes;
    private final ShardCompressor compression;
    private final List<String> hashes;
    private final long sizeLimit;
    private final byte[] config;
    private final List<Map<String, Object>> shards = new ArrayList<>();
    private final List<Path> written = new ArrayList<>();
    private MdsShardBuilder shard;
    private long samples;
    private boolean closed;
    private boolean committed;
    private String failure;

    private MdsWriter(Builder b) throws IOException {
        this.dir = b.dir;
        this.names = List.copyOf(b.columns.keySet());
        this.encodings = b.columns.values().stream().map(MdsValueEncoder::writable).toList();
        List<Integer> s = new ArrayList<>();
        for (MdsEncoding e : encodings) {
            s.add(e.fixedSize() < 0 ? null : Math.toIntExact(e.fixedSize()));
        }
        this.sizes = s;
        this.compression = b.compression;
        this.hashes = List.copyOf(b.hashes);
        this.sizeLimit = b.sizeLimit;
        Map<String, Object> cfg = new TreeMap<>();
        cfg.put("version", 2);
        cfg.put("format", "mds");
        cfg.put("compression", compression == null ? null : compression.spec());
        cfg.put("hashes", hashes);
        cfg.put("size_limit", sizeLimit == 0 ? null : sizeLimit);
        cfg.put("column_names", names);
        cfg.put("column_encodings", List.copyOf(b.columns.values()));
        cfg.put("column_sizes", sizes);
        this.config = PythonJson.dumps(cfg).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Files.createDirectories(dir);
        try (Stream<Path> existing = Files.list(dir)) {
            if (existing.findAny().isPresent()) {
                throw new IllegalArgumentException(dir + " is not empty; MDS output goes into an empty folder,"
                        + " as Streaming's MDSWriter wants (remove it, or choose another)");
            }
        }
    }

    /** A writer into {@code dir} (made if missing; it must be empty). */
    public static Builder builder(Path dir) {
        return new Builder(dir);
    }

    /**
     * Adds one sample: a value for every column, keyed by column name.
     *
     * @throws IllegalArgumentException naming the sample number and column when a column is
     *     missing, unknown, or its value does not fit the encoding; nothing of the sample is
     *     written then
     */
    public void write(Map<String, ?> sample) {
        if (closed) {
            throw new IllegalStateException("the MDS writer into " + dir + " is closed");
        }
        if (failure != null) {
            throw new IllegalStateException("the MDS writer into " + dir + " failed before: " + failure);
        }
        byte[] encoded = encode(sample);
        try {
            long cost = encoded.length + 4L; // its offset in the table
            if (shard != null && shard.samples() > 0 && shard.bytes() + cost > limit()) {
                finishShard();
            }
            if (shard == null) {
                shard = new MdsShardBuilder(dir, shards.size(), config, compression);
            }
            if (shard.bytes() + cost > MAX_SHARD_BYTES) {
                throw new IllegalArgumentException("sample " + samples + " takes " + encoded.length
                        + " bytes: more than an MDS shard can hold (offsets are 32-bit)");
            }
            shard.add(encoded);
            samples++;
        } catch (IOException e) {
            failure = "could not write shard " + shards.size() + " into " + dir + ": " + e.getMessage();
            throw new UncheckedIOException(failure, e);
        }
    }

    /** The samples written so far. */
    public long samples() {
        return samples;
    }

    /** The shards finished so far (the one being filled not counted). */
    public int shards() {
        return shards.size();
    }

    /**
     * Finishes the last shard and writes {@code index.json}, last: the dataset is published. After
     * it, {@link #close()} does nothing.
     *
     * @throws IllegalStateException when the writer was closed or aborted (nothing is published)
     * @throws UncheckedIOException when a file cannot be written; the writer is then aborted
     */
    public void commit() {
        if (committed) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("the MDS writer into " + dir + " was closed or aborted before its commit:"
                    + " nothing was published");
        }
        if (failure != null) {
            abort();
            throw new IllegalStateException("the MDS writer into " + dir + " failed, so nothing is published"
                    + " (what it wrote is deleted): " + failure);
        }
        closed = true;
        try {
            if (shard != null && shard.samples() > 0) {
                finishShard();
            } else if (shard != null) {
                shard.discard();
            }
            Map<String, Object> index = new TreeMap<>();
            index.put("version", 2);
            index.put("shards", shards);
            Path tmp = dir.resolve("index.json.tmp");
            Files.writeString(tmp, PythonJson.dumps(index), java.nio.charset.StandardCharsets.US_ASCII);
            written.add(tmp);
            Files.move(tmp, dir.resolve("index.json"), StandardCopyOption.ATOMIC_MOVE);
            committed = true;
        } catch (IOException | RuntimeException e) {
            deleteWritten();
            throw e instanceof IOException io ? new UncheckedIOException("could not finish the MDS dataset in "
                    + dir + " (what was written is deleted)", io) : (RuntimeException) e;
        }
    }

    /**
     * Ends the writer. After {@link #commit()} it does nothing; without one it aborts, as
     * {@link #abort()} does: a writer closed by a try-with-resources block that failed publishes
     * nothing.
     */
    @Override
    public void close() {
        abort();
    }

    /**
     * Gives up: writes no {@code index.json} and deletes every file the writer wrote (the folder
     * was empty when it opened), so that nothing reads the folder as a dataset. Does nothing after
     * {@link #commit()} or a first abort.
     */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        deleteWritten();
    }

    private void deleteWritten() {
        if (shard != null) {
            try {
                shard.discard();
            } catch (IOException e) {
                // a hidden file aside; the folder has no index either way
            }
            shard = null;
        }
        for (Path p : written) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // the folder has no index.json: no reader takes what stays for a dataset
            }
        }
    }

    private long limit() {
        return sizeLimit == 0 ? MAX_SHARD_BYTES : sizeLimit;
    }

    private byte[] encode(Map<String, ?> sample) {
        for (String key : sample.keySet()) {
            if (!names.contains(key)) {
                throw new IllegalArgumentException("sample " + samples + " has a column '" + key
                        + "' that the writer does not: its columns are " + names);
            }
        }
        byte[][] values = new byte[names.size()][];
        int variable = 0;
        long total = 0;
        for (int c = 0; c < values.length; c++) {
            String name = names.get(c);
            if (!sample.containsKey(name)) {
                throw new IllegalArgumentException("sample " + samples + " has no value for column '" + name + "'");
            }
            try {
                values[c] = MdsValueEncoder.encode(encodings.get(c), sample.get(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("sample " + samples + ", column '" + name + "': " + e.getMessage(), e);
            }
            Integer fixed = sizes.get(c);
            if (fixed == null) {
                variable++;
            } else if (fixed != values[c].length) {
                throw new IllegalArgumentException("sample " + samples + ", column '" + name + "' ("
                        + encodings.get(c).text() + ") takes " + fixed + " bytes, and the value gave " + values[c].length);
            }
            total += values[c].length;
        }
        if (total + 4L * variable > MAX_SHARD_BYTES) {
            throw new IllegalArgumentException("sample " + samples + " takes " + total
                    + " bytes: more than an MDS shard can hold (offsets are 32-bit)");
        }
        byte[] out = new byte[Math.toIntExact(4L * variable + total)];
        java.nio.ByteBuffer head = java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < values.length; c++) {
            if (sizes.get(c) == null) {
                head.putInt(values[c].length);
            }
        }
        for (byte[] v : values) {
            head.put(v);
        }
        return out;
    }

    private void finishShard() throws IOException {
        MdsShardBuilder finishing = shard;
        shard = null;
        try {
            shards.add(finishing.finish(names, encodings.stream().map(MdsEncoding::text).toList(), sizes,
                    compression, hashes, sizeLimit));
        } finally {
            written.add(finishing.file());
            finishing.discard(); // its body aside, when the shard failed before it was deleted
        }
    }

    /** What {@link #builder} returns: the columns and the options, then {@link #open()}. */
    public static final class Builder {
        private final Path dir;
        private final TreeMap<String, String> columns = new TreeMap<>();
        private ShardCompressor compression;
        private final TreeSet<String> hashes = new TreeSet<>();
        private long sizeLimit = DEFAULT_SIZE_LIMIT;

        private Builder(Path dir) {
            this.dir = Objects.requireNonNull(dir, "dir");
        }

        /**
         * A column and its MDS encoding ({@code int}, {@code str}, {@code jpeg},
         * {@code ndarray:float32:3,32,32}, ...: Streaming's names).
         *
         * @throws IllegalArgumentException for an encoding Streaming does not know, or a name
         *     given twice
         */
        public Builder column(String name, String encoding) {
            Objects.requireNonNull(name, "name");
            MdsValueEncoder.writable(Objects.requireNonNull(encoding, "encoding"));
            if (columns.putIfAbsent(name, encoding) != null) {
                throw new IllegalArgumentException("column '" + name + "' is given twice");
            }
            return this;
        }

        /** Compression of whole shards: {@code zstd}, {@code zstd:LEVEL}, {@code gz}, {@code gz:LEVEL}, or null for none. */
        public Builder compression(String spec) {
            this.compression = spec == null ? null : ShardCompressor.parse(spec);
            return this;
        }

        /**
         * Hashes of every shard file to record in the index (Streaming's names: {@code md5},
         * {@code sha1}, {@code sha256}, ...; those the JDK has).
         */
        public Builder hashes(String... algorithms) {
            for (String a : algorithms) {
                if (ShardHashes.jdkName(a) == null) {
                    throw new IllegalArgumentException("no hash '" + a + "' here: Stoker computes md5, sha1, sha224,"
                            + " sha256, sha384, sha512 and sha3_* (Streaming's xxh* and blake2* are not in the JDK)");
                }
                hashes.add(a);
            }
            return this;
        }

        /** The size at which a shard ends (default 64 MiB); 0 for none but the format's 4 GiB. */
        public Builder sizeLimit(long bytes) {
            if (bytes < 0 || bytes > MAX_SHARD_BYTES) {
                throw new IllegalArgumentException("the size limit is 0 (none) or 1 to " + MAX_SHARD_BYTES
                        + " bytes (MDS offsets are 32-bit), not " + bytes);
            }
            this.sizeLimit = bytes;
            return this;
        }

        /**
         * Opens the writer.
         *
         * @throws IllegalArgumentException without columns, or when the folder is not empty
         * @throws UncheckedIOException when the folder cannot be made or read
         */
        public MdsWriter open() {
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("an MDS dataset needs at least one column");
            }
            try {
                return new MdsWriter(this);
            } catch (IOException e) {
                throw new UncheckedIOException("could not open " + dir + " for MDS output", e);
            }
        }
    }
}
