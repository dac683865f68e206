package dev.stoker.formats.tar;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes samples into WebDataset tar shards: each field of a sample is a member
 * {@code <key>.<extension>}, in the order given, written as ustar (mode 0644, mtime 0; see
 * {@link TarHeaderWriter}), readable by Python's tarfile, GNU tar and WebDataset. A new shard starts
 * when the current one has {@code maxSamples} samples or the next sample would make its final
 * length (end marker and padding to 10 KiB records included) exceed {@code maxBytes} (a sample
 * larger than that gets a shard of its own). Shards are named by a
 * {@link String#format} pattern with the shard number in the file name, each with its
 * {@link ShardIndex} sidecar unless turned off.
 *
 * <p>A set of shards is published whole or not at all. The writer writes every shard and sidecar
 * under a temporary name ({@code shard-000000.tar.part}) and marks the set in progress
 * ({@code shard.stoker-manifest.part}, see {@link ShardSetManifest}); only {@link #commit()} gives
 * the files their names and then, last, renames the mark to the set's manifest. {@link #close()}
 * without a commit (an exception in a try-with-resources block) deletes what the writer wrote. A
 * writer killed before its commit leaves only temporary names and the mark, and readers
 * ({@link ShardSets}) refuse the pattern's shards while the mark is there.
 *
 * <p>A pattern whose folder already holds shards of it (or their manifest, or a mark) is refused
 * unless {@link Builder#overwrite}; with it, the commit also deletes what the old set had that the
 * new one does not: names the pattern writes and their sidecars, never other files.
 *
 * <p>A pattern that ends in {@code .gz} or {@code .tgz} writes gzip-compressed shards, as
 * WebDataset's writer does: {@code maxBytes} then bounds the tar before compression, and no
 * sidecar is written (a compressed shard is read as a stream, never by offset).
 *
 * <pre>{@code
 * try (ShardWriter w = ShardWriter.builder("out/shard-%06d.tar").maxSamples(1000).build()) {
 *     w.write("000000", Map.of("jpg", jpegBytes, "cls", "7".getBytes(US_ASCII)));
 *     w.commit();   // without it, close() deletes what was written
 * }
 * }</pre>
 */
public final class ShardWriter implements AutoCloseable {
    /** Python's tarfile and GNU tar pad archives to records of 20 blocks; so do we. */
    static final int RECORD = 20 * TarHeader.BLOCK;
    private static final byte[] ZEROS = new byte[RECORD];

    private final String pattern;
    private final long maxSamples;
    private final long maxBytes;
    private final boolean writeIndex;
    private final ShardOutput output;
    private final List<ShardInfo> finished = new ArrayList<>();
    private final List<Path> temporary = new ArrayList<>();

    private int shardNumber;
    private Path path;
    private Path partial;
    private OutputStream out;
    private long written;
    private long samples;
    private ShardIndex.Builder index;
    private boolean closed;
    private boolean committed;
    private boolean publishing;
    private String failure;

    /**
     * A finished shard.
     *
     * @param path    where it is
     * @param samples how many samples it holds
     * @param bytes   its length in bytes
     */
    public record ShardInfo(Path path, long samples, long bytes) {
    }

    private ShardWriter(Builder b, ShardOutput output) {
        this.pattern = b.pattern;
        this.maxSamples = b.maxSamples;
        this.maxBytes = b.maxBytes;
        this.writeIndex = b.writeIndex;
        this.shardNumber = b.firstShard;
        this.output = output;
    }

    /** A writer whose shards are named {@code String.format(pattern, n)}, e.g. {@code shard-%06d.tar}. */
    public static Builder builder(String pattern) {
        return new Builder(pattern);
    }

    /** Writes one sample: its fields by extension, in the map's order. */
    public void write(String key, Map<String, byte[]> fields) {
        Map<String, MemorySegment> segments = new LinkedHashMap<>();
        fields.forEach((ext, bytes) -> segments.put(ext, MemorySegment.ofArray(bytes)));
        writeSegments(key, segments);
    }

    /** Writes a sample read from another shard (its key and fields). */
    public void write(TarSample sample) {
        writeSegments(sample.key(), sample.fields());
    }

    /** Writes one sample whose fields are segments (a memory map, off-heap buffers). */
    public void writeSegments(String key, Map<String, MemorySegment> fields) {
        if (closed) {
            throw new IllegalStateException("shard writer is closed");
        }
        if (failure != null) {
            throw new IllegalStateException("shard writer of " + pattern + " failed before: " + failure);
        }
        checkNames(key, fields);
        List<byte[]> headers = new ArrayList<>(fields.size());
        long bytes = 0;
        for (Map.Entry<String, MemorySegment> f : fields.entrySet()) {
            byte[] h = TarHeaderWriter.headers(key + "." + f.getKey(), f.getValue().byteSize());
            headers.add(h);
            bytes += h.length + padded(f.getValue().byteSize());
        }
        if (out != null && (samples >= maxSamples || finalLength(written + bytes) > maxBytes)) {
            finishShard();
        }
        if (out == null) {
            startShard();
        }
        index.sample(key);
        int i = 0;
        try {
            for (Map.Entry<String, MemorySegment> f : fields.entrySet()) {
                byte[] h = headers.get(i++);
                out.write(h);
                written += h.length;
                index.member(f.getKey(), written, f.getValue().byteSize());
                copy(f.getValue(), out);
                long size = f.getValue().byteSize();
                int pad = (int) (padded(size) - size);
                out.write(ZEROS, 0, pad);
                written += size + pad;
            }
        } catch (IOException e) {
            failure = "writing shard " + partial + " failed: " + e.getMessage();
            throw new UncheckedIOException(failure, e);
        }
        samples++;
    }

    private static void checkNames(String key, Map<String, ?> fields) {
        String problem = SampleKeys.problem(key);
        if (problem != null) {
            throw new IllegalArgumentException("sample key \"" + key + "\" cannot be read back: a key must not be"
                    + " empty, and its file name must have no dot (" + problem + ")");
        }
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("sample \"" + key + "\" has no fields");
        }
        for (String ext : fields.keySet()) {
            if (ext.isEmpty() || ext.indexOf('/') >= 0 || ext.endsWith(".")) {
                throw new IllegalArgumentException("sample \"" + key + "\": \"" + ext
                        + "\" is not an extension (not empty, no '/', not ending in '.')");
            }
        }
    }

    /** A shard's length once closed with {@code contentBytes} of members: end marker and record padding added. */
    static long finalLength(long contentBytes) {
        long end = contentBytes + 2L * TarHeader.BLOCK;
        return (end + RECORD - 1) / RECORD * RECORD;
    }

    private static long padded(long size) {
        return (size + TarHeader.BLOCK - 1) / TarHeader.BLOCK * TarHeader.BLOCK;
    }

    private static void copy(MemorySegment data, OutputStream out) throws IOException {
        if (data.isNative() || data.heapBase().isEmpty() || !(data.heapBase().get() instanceof byte[])) {
            byte[] chunk = new byte[(int) Math.min(data.byteSize(), 1 << 16)];
            for (long at = 0; at < data.byteSize(); at += chunk.length) {
                int n = (int) Math.min(chunk.length, data.byteSize() - at);
                MemorySegment.copy(data, ValueLayout.JAVA_BYTE, at, chunk, 0, n);
                out.write(chunk, 0, n);
            }
        } else {
            out.write(data.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    private void startShard() {
        path = Path.of(String.format(pattern, shardNumber));
        partial = path.resolveSibling(path.getFileName() + ".part");
        try {
            temporary.add(partial);
            out = new BufferedOutputStream(Files.newOutputStream(partial), 1 << 20);
            if (compressed()) {
                out = new GZIPOutputStream(out, 1 << 16);
            }
        } catch (IOException e) {
            failure = "cannot create shard " + partial + ": " + e.getMessage();
            throw new UncheckedIOException(failure, e);
        }
        written = 0;
        samples = 0;
        index = new ShardIndex.Builder();
    }

    private void finishShard() {
        try {
            // the end-of-archive marker (two zero blocks), then zeros to the end of the record
            long total = finalLength(written);
            long zeros = total - written;
            while (zeros > 0) {
                int n = (int) Math.min(zeros, ZEROS.length);
                out.write(ZEROS, 0, n);
                zeros -= n;
            }
            out.close();
            out = null;
            if (writeIndex && !compressed()) {
                Path sidecar = pendingSidecar(path);
                temporary.add(sidecar);
                index.build(total).write(sidecar);
            }
            finished.add(new ShardInfo(path, samples, compressed() ? Files.size(partial) : total));
        } catch (IOException | UncheckedIOException e) {
            failure = "finishing shard " + partial + " failed: " + e.getMessage();
            throw new UncheckedIOException(failure, e instanceof IOException io ? io : new IOException(e));
        }
        shardNumber++;
    }

    /** Where a shard's sidecar waits for the commit. */
    private static Path pendingSidecar(Path shard) {
        Path sidecar = ShardIndex.sidecar(shard);
        return sidecar.resolveSibling(sidecar.getFileName() + ".part");
    }

    private boolean compressed() {
        String name = path.getFileName().toString();
        return name.endsWith(".gz") || name.endsWith(".tgz");
    }

    /**
     * The shards finished so far (all of them after {@link #commit()}), under the names they have
     * once committed.
     */
    public List<ShardInfo> shards() {
        return List.copyOf(finished);
    }

    /** Where the set's manifest goes at {@link #commit()} ({@code shard.stoker-manifest} for {@code shard-%06d.tar}). */
    public Path manifest() {
        return output.manifest();
    }

    /** Samples written to the shard being written now. */
    public long samplesInCurrentShard() {
        return out == null ? 0 : samples;
    }

    /**
     * Finishes the last shard and publishes the set: every shard and sidecar gets its name, the
     * files of an old set that the new one does not have are deleted ({@link Builder#overwrite}),
     * and last the set's manifest replaces the in-progress mark. After it, {@link #close()} does
     * nothing.
     *
     * @throws IllegalStateException when the writer is closed, or a write failed before (nothing
     *     is published then)
     * @throws UncheckedIOException when a file cannot be renamed or deleted; the in-progress mark
     *     then stays, so that readers refuse the half-published set
     */
    public void commit() {
        if (committed) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("shard writer of " + pattern + " is closed without a commit:"
                    + " what it wrote is deleted");
        }
        if (failure != null) {
            throw new IllegalStateException("shard writer of " + pattern + " failed, so nothing is published: "
                    + failure);
        }
        if (out != null) {
            finishShard();
        }
        publishing = true;
        List<ShardSetManifest.Shard> listed = new ArrayList<>();
        try {
            for (ShardInfo s : finished) {
                Path sidecar = pendingSidecar(s.path());
                boolean indexed = Files.exists(sidecar);
                if (indexed) { // the sidecar first: a shard never appears without its index
                    move(sidecar, ShardIndex.sidecar(s.path()));
                }
                move(s.path().resolveSibling(s.path().getFileName() + ".part"), s.path());
                listed.add(new ShardSetManifest.Shard(s.path().getFileName().toString(), s.samples(), s.bytes(),
                        indexed));
            }
            output.commit(listed);
        } catch (IOException e) {
            throw new UncheckedIOException("publishing the shards of " + pattern + " failed (" + e.getMessage()
                    + "); " + output.mark() + " stays, so that readers refuse the half-published set", e);
        }
        committed = true;
        closed = true;
    }

    private static void move(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Ends the writer. After {@link #commit()} it does nothing; without one it aborts: what the
     * writer wrote is deleted, and an old set of the pattern stays as it was.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                // the file is deleted below either way
            }
            out = null;
        }
        for (Path p : temporary) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // a temporary name is never read as a shard; the mark below says what happened
            }
        }
        if (!publishing) {
            output.withdraw();
        }
    }

    /** Settings of a {@link ShardWriter}. */
    public static final class Builder {
        private final String pattern;
        private long maxSamples = Long.MAX_VALUE;
        private long maxBytes = Long.MAX_VALUE;
        private boolean writeIndex = true;
        private int firstShard;
        private boolean overwrite;
        private String writtenBy = "stoker ShardWriter";

        private Builder(String pattern) {
            String a;
            String b;
            try {
                a = String.format(pattern, 0);
                b = String.format(pattern, 1);
            } catch (IllegalFormatException e) {
                throw new IllegalArgumentException("shard name pattern \"" + pattern
                        + "\" is not a format with one number, like shard-%06d.tar: " + e.getMessage());
            }
            if (a.equals(b)) {
                throw new IllegalArgumentException("shard name pattern \"" + pattern
                        + "\" gives every shard the same name; put the shard number in it, like shard-%06d.tar");
            }
            this.pattern = pattern;
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

        /** The number of the first shard (default 0). */
        public Builder firstShard(int n) {
            this.firstShard = n;
            return this;
        }

        /**
         * Replace a set of shards already written with this pattern (default: refuse it). The old
         * set stays as it was until {@link #commit()}, which deletes the names of the pattern that
         * the new set does not write, and their sidecars.
         */
        public Builder overwrite(boolean on) {
            this.overwrite = on;
            return this;
        }

        /** What the manifest says wrote the set, e.g. {@code stoker pack} (default: {@code stoker ShardWriter}). */
        public Builder writtenBy(String what) {
            this.writtenBy = java.util.Objects.requireNonNull(what, "what");
            return this;
        }

        /**
         * Opens the writer: checks the folder for an earlier set of the pattern and marks the new
         * one in progress.
         *
         * @throws IllegalStateException when shards of the pattern, their manifest or an
         *     in-progress mark are there already and {@link #overwrite} is off
         * @throws IllegalArgumentException when the shard number is in the folder part of the
         *     pattern, or another pattern's manifest has the name this one needs
         * @throws UncheckedIOException when the folder cannot be made or read
         */
        public ShardWriter build() {
            return new ShardWriter(this, ShardOutput.open(pattern, overwrite, writtenBy));
        }
    }
}
