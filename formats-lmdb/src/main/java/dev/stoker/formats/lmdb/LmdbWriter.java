package dev.stoker.formats.lmdb;

import dev.stoker.data.DataFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * Writes a new LMDB environment in an {@link LmdbLayout}, for {@link LmdbDataset} (or Python's
 * {@code lmdb}, as W8's dataset) to read: sample {@code i}'s value under the layout's key for
 * {@code i}, and, at {@link #commit()}, the number of samples under the size key (ASCII decimal)
 * and one uint8 label per sample under the labels key.
 *
 * <pre>{@code
 * try (LmdbWriter w = LmdbWriter.builder(Path.of("data/lmdb")).layout(LmdbLayout.w8()).build()) {
 *     for (LabeledFile f : ImageFolder.scan(Path.of("data/jpeg")).files()) {
 *         w.append(Files.readAllBytes(f.path()), f.label());   // keys 000000, 000001, ...
 *     }
 *     w.commit();                                              // writes __len__ and __labels__
 * }                                                            // without the commit: deleted
 * try (LmdbDataset ds = LmdbDataset.open(Path.of("data/lmdb"))) { ... }
 * }</pre>
 *
 * <p>Writes are committed in batches ({@link Builder#commitEvery}): one transaction per sample
 * would make every sample pay a commit, one for everything would hold the whole input in dirty
 * pages. The map (LMDB's fixed maximum size) starts at {@link Builder#mapSize} or at an estimate
 * from {@link Builder#expect}, and doubles whenever LMDB reports it full, the batch being written
 * again into the larger map; the data file only ever holds the pages in use.
 *
 * <p>NOTE: the writer keeps a copy of the values of the batch not yet committed (to write them
 * again after growing the map), so a batch's bytes are held twice, on the heap and in LMDB's dirty
 * pages. It syncs the data file once, at {@link #commit()}, not at every batch: an environment cut
 * short by a crash has no size key, and {@link LmdbDataset#open} refuses it.
 *
 * <p>The environment is published whole or not at all: it is written aside, in a hidden folder
 * beside the path ({@code .NAME.stoker-part...}), and {@link #commit()} moves its data file into
 * place last, over the one an {@link Builder#overwrite} replaces (which stays as it was until
 * then). {@link #close()} without a commit (an exception in a try-with-resources block),
 * {@link #abort()} and a failed write delete what was written aside. One thread writes; the
 * writer is not thread-safe.
 */
public final class LmdbWriter implements AutoCloseable {
    static final String DATA_FILE = "data.mdb";
    static final String LOCK_FILE = "lock.mdb";
    private static final int MAX_KEY_BYTES = 511; // liblmdb's default mdb_env_get_maxkeysize
    // Growth stops here (64 TiB): a map that large is a loop gone wrong, not data.
    private static final long MAX_MAP_SIZE = 1L << 46;
    private static final long MIN_MAP_SIZE = 64 << 10;

    private final Path path;
    private final LmdbLayout layout;
    private final int batchSamples;
    private final long batchBytes;
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> dbi;
    private final ByteBuffer key = ByteBuffer.allocateDirect(MAX_KEY_BYTES);
    // The batch not yet committed, kept to write it again into a grown map.
    private final List<Entry> pending = new ArrayList<>();
    private final ByteArrayOutputStream labels = new ByteArrayOutputStream();
    private long mapSize;
    private Txn<ByteBuffer> txn;
    private long pendingBytes;
    private long count;
    private long bytes;
    private int resizes;
    private byte[] lastKey = new byte[0];
    private boolean closed;
    private boolean committed;
    private final boolean singleFile;
    // the hidden folder the environment is written in until the commit
    private final Path aside;

    /** The suffix liblmdb gives the lock file of a single-file environment ({@code MDB_NOSUBDIR}). */
    static final String SINGLE_FILE_LOCK_SUFFIX = "-lock";

    /** A key and its value, and whether it may be appended (greater than every key before it). */
    private record Entry(byte[] key, String name, byte[] value, boolean append) {}

    private LmdbWriter(Path path, boolean singleFile, Path aside, LmdbLayout layout, int batchSamples,
                       long batchBytes, Env<ByteBuffer> env, Dbi<ByteBuffer> dbi, long mapSize) {
        this.path = path;
        this.singleFile = singleFile;
        this.aside = aside;
        this.layout = layout;
        this.batchSamples = batchSamples;
        this.batchBytes = batchBytes;
        this.env = env;
        this.dbi = dbi;
        this.mapSize = mapSize;
    }

    /**
     * A writer of a new environment in the directory {@code path} (made if missing), or, with
     * {@link Builder#singleFile}, in the data file {@code path}.
     */
    public static Builder builder(Path path) {
        return new Builder(path);
    }

    /** The settings of a writer: its layout, whether it may replace an environment, map size and batches. */
    public static final class Builder {
        private final Path path;
        private LmdbLayout layout = LmdbLayout.w8();
        private boolean overwrite;
        private boolean singleFile;
        private long mapSize = 64L << 20;
        private int batchSamples = 1000;
        private long batchBytes = 64L << 20;

        private Builder(Path path) {
            this.path = Objects.requireNonNull(path, "path");
        }

        /** Where the samples, size and labels go (default {@link LmdbLayout#w8()}). */
        public Builder layout(LmdbLayout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        /**
         * Whether an environment already at the path is replaced (default: refused); it stays as
         * it was until {@link LmdbWriter#commit()}.
         */
        public Builder overwrite(boolean overwrite) {
            this.overwrite = overwrite;
            return this;
        }

        /**
         * Writes the environment as one data file at the path, with its lock file beside it
         * ({@code PATH-lock}), as Python's {@code lmdb.open(path, subdir=False)} does, instead of
         * a folder holding {@code data.mdb} and {@code lock.mdb} (default). {@link LmdbDataset#open}
         * reads either.
         */
        public Builder singleFile(boolean singleFile) {
            this.singleFile = singleFile;
            return this;
        }

        /** The map size to start with, in bytes (default 64 MiB); it grows when full. */
        public Builder mapSize(long bytes) {
            if (bytes < MIN_MAP_SIZE || bytes > MAX_MAP_SIZE) {
                throw new IllegalArgumentException("map size " + bytes + " bytes: between " + MIN_MAP_SIZE
                        + " and " + MAX_MAP_SIZE);
            }
            this.mapSize = bytes;
            return this;
        }

        /**
         * Starts the map at an estimate for {@code samples} values of {@code bytes} in all, with
         * headroom, so that it rarely has to grow.
         */
        public Builder expect(long samples, long bytes) {
            if (samples < 0 || bytes < 0) {
                throw new IllegalArgumentException("expected " + samples + " samples of " + bytes + " bytes");
            }
            // A value over about half a page goes on overflow pages of its own (up to a page lost to
            // rounding); smaller ones share leaf pages, which splits leave about half full.
            boolean large = samples > 0 && bytes / samples > 2000;
            long estimate = (large ? bytes + samples * (4096L + 64) : 2 * (bytes + samples * 64)) + samples + (1L << 20);
            return mapSize(Math.clamp(estimate + estimate / 4, MIN_MAP_SIZE, MAX_MAP_SIZE));
        }

        /** Commits after every {@code samples} samples or once a batch holds {@code bytes} bytes (default 1000, 64 MiB). */
        public Builder commitEvery(int samples, long bytes) {
            if (samples < 1 || bytes < 1) {
                throw new IllegalArgumentException("commit every " + samples + " samples, " + bytes + " bytes: both at least 1");
            }
            this.batchSamples = samples;
            this.batchBytes = bytes;
            return this;
        }

        /**
         * Creates the environment.
         *
         * @throws LmdbException naming the path when an environment is there (and overwrite is
         *                       off), the path is a file or a folder of other files, or LMDB cannot
         *                       create it there
         */
        public LmdbWriter build() {
            if (singleFile) {
                prepareFile(path, overwrite);
            } else {
                prepare(path, overwrite);
            }
            Path aside;
            try {
                Path abs = path.toAbsolutePath();
                aside = Files.createTempDirectory(abs.getParent(), "." + abs.getFileName() + ".stoker-part");
            } catch (IOException e) {
                throw new LmdbException(path, "cannot write the LMDB environment at " + path + ": cannot make a folder"
                        + " beside it to write in (" + e + ")", e);
            }
            Path target = singleFile ? aside.resolve(DATA_FILE) : aside;
            Env<ByteBuffer> env;
            try {
                // NOSYNC: one fsync at close instead of one per commit (see the class's NOTE).
                EnvFlags[] flags = singleFile ? new EnvFlags[] {EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOSUBDIR}
                        : new EnvFlags[] {EnvFlags.MDB_NOSYNC};
                env = Env.create().setMapSize(mapSize).setMaxDbs(1).open(target.toFile(), flags);
            } catch (ExceptionInInitializerError | IllegalAccessError | NoClassDefFoundError e) {
                deleteTree(aside);
                throw new LmdbException(path, "cannot create the LMDB environment at " + path
                        + ": lmdbjava needs the JVM flags " + LmdbEnvironment.JVM_FLAGS + " (" + e + ")", e);
            } catch (RuntimeException e) {
                deleteTree(aside);
                throw new LmdbException(path, "cannot create an LMDB environment at " + path + ": " + e.getMessage(), e);
            }
            try {
                Dbi<ByteBuffer> dbi = env.openDbi((byte[]) null);
                try (Txn<ByteBuffer> probe = env.txnRead()) {
                    probe.val(); // lmdbjava's buffers fail at first use without the flags: fail here, by name
                }
                return new LmdbWriter(path, singleFile, aside, layout, batchSamples, batchBytes, env, dbi,
                        env.info().mapSize);
            } catch (IllegalAccessError | ExceptionInInitializerError | NoClassDefFoundError e) {
                env.close();
                deleteTree(aside);
                throw new LmdbException(path, "cannot write the LMDB environment at " + path
                        + ": lmdbjava needs the JVM flags " + LmdbEnvironment.JVM_FLAGS + " (" + e + ")", e);
            } catch (RuntimeException e) {
                env.close();
                deleteTree(aside);
                throw new LmdbException(path, "cannot write the LMDB environment at " + path + ": " + e.getMessage(), e);
            }
        }
    }

    // The path must be absent, an empty folder, or (with overwrite) a folder holding an environment,
    // whose data file the commit replaces. Files that are not LMDB's are never touched.
    private static void prepare(Path path, boolean overwrite) {
        try {
            if (Files.isRegularFile(path)) {
                throw new LmdbException(path, "cannot write an LMDB environment at " + path
                        + ": it is a file (the writer makes a folder holding data.mdb)");
            }
            if (!Files.exists(path)) {
                Files.createDirectories(path);
                return;
            }
            List<Path> entries;
            try (Stream<Path> list = Files.list(path)) {
                entries = list.sorted().toList(); // sorted: the same example in every message
            }
            boolean hasData = entries.contains(path.resolve(DATA_FILE));
            if (hasData && !overwrite) {
                throw new LmdbException(path, "there is already an LMDB environment at " + path + " (" + DATA_FILE + ", "
                        + Files.size(path.resolve(DATA_FILE)) + " bytes); delete it or ask to overwrite it");
            }
            List<Path> others = entries.stream().filter(p -> !p.getFileName().toString().equals(DATA_FILE)
                    && !p.getFileName().toString().equals(LOCK_FILE)).toList();
            if (!others.isEmpty()) {
                throw new LmdbException(path, "cannot write an LMDB environment at " + path + ": the folder holds "
                        + others.size() + " other file" + (others.size() == 1 ? "" : "s") + " (e.g. "
                        + others.getFirst().getFileName() + "); give an empty or new folder");
            }
        } catch (IOException e) {
            throw new LmdbException(path, "cannot write an LMDB environment at " + path + ": " + e, e);
        }
    }

    // A single-file environment: the path must be absent or (with overwrite) an LMDB data file,
    // which the commit replaces. Anything else at the path is never touched.
    private static void prepareFile(Path path, boolean overwrite) {
        Path lock = lockFileOf(path);
        try {
            if (Files.isDirectory(path)) {
                throw new LmdbException(path, "cannot write a single-file LMDB environment at " + path
                        + ": it is a folder (leave singleFile off to write data.mdb into it)");
            }
            if (Files.exists(path)) {
                if (!overwrite) {
                    throw new LmdbException(path, "there is already a file at " + path + " (" + Files.size(path)
                            + " bytes); delete it or ask to overwrite it");
                }
                if (!isLmdbDataFile(path)) {
                    throw new LmdbException(path, "cannot overwrite " + path + ": it is not an LMDB data file (no"
                            + " LMDB meta page at its start), so it is left alone");
                }
            }
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new LmdbException(path, "cannot write an LMDB environment at " + path + ": " + e, e);
        }
    }

    /** The lock file liblmdb keeps beside a single-file environment. */
    static Path lockFileOf(Path dataFile) {
        return dataFile.resolveSibling(dataFile.getFileName() + SINGLE_FILE_LOCK_SUFFIX);
    }

    // LMDB's first page is a meta page: the page header (16 bytes), then the magic number 0xBEEFC0DE.
    private static boolean isLmdbDataFile(Path path) throws IOException {
        try (var in = DataFiles.newInputStream(path)) { // a FIFO is refused, not opened
            byte[] head = in.readNBytes(24);
            if (head.length < 24) {
                return false;
            }
            int magic = ByteBuffer.wrap(head, 16, 4).order(ByteOrder.nativeOrder()).getInt();
            return magic == 0xBEEFC0DE;
        }
    }

    /** Where the environment is. */
    public Path path() {
        return path;
    }

    /**
     * The environment's data file: {@code data.mdb} in the folder, or the path itself for a single
     * file (there once committed).
     */
    public Path dataFile() {
        return singleFile ? path : path.resolve(DATA_FILE);
    }

    /** The layout it writes in. */
    public LmdbLayout layout() {
        return layout;
    }

    /** Samples written so far; the next one gets index {@code count()}. */
    public long count() {
        return count;
    }

    /** Value bytes written so far. */
    public long bytes() {
        return bytes;
    }

    /** The map size now, in bytes. */
    public long mapSize() {
        return mapSize;
    }

    /** How many times the map grew. */
    public int resizes() {
        return resizes;
    }

    /**
     * Writes the next sample, with no label: for layouts without a labels key.
     *
     * @throws IllegalArgumentException when the layout has a labels key
     */
    public void append(byte[] value) {
        if (layout.labelsKey() != null) {
            throw new IllegalArgumentException("the layout stores labels under " + layout.labelsKey()
                    + ": give sample " + count + " a label (or use a layout without labels)");
        }
        write(value, -1);
    }

    /**
     * Writes the next sample: {@code value} (copied) under the layout's key for index {@link #count()},
     * and its label.
     *
     * @param label the class id, 0 to 255 (stored as one byte)
     * @throws IllegalArgumentException when the label is outside 0..255 or the layout has no labels key
     * @throws LmdbException            naming the path and key when LMDB refuses the write (a key
     *                                  written twice, a key too long, a full disk)
     */
    public void append(byte[] value, int label) {
        if (layout.labelsKey() == null) {
            throw new IllegalArgumentException("the layout has no labels key: write sample " + count
                    + " without a label, or use a layout with labels");
        }
        if (label < 0 || label > 255) {
            throw new IllegalArgumentException("label " + label + " of sample " + count
                    + ": LMDB labels are one byte each (0..255)");
        }
        write(value, label);
    }

    private void write(byte[] value, int label) {
        Objects.requireNonNull(value, "value");
        ensureOpen();
        String name = layout.keys().apply(count);
        byte[] keyBytes = keyBytes(name);
        // Keys in increasing byte order go in with MDB_APPEND: full pages and no search. LMDB's
        // default order is memcmp, then the shorter first, as Arrays.compareUnsigned.
        boolean append = Arrays.compareUnsigned(keyBytes, lastKey) > 0;
        put(new Entry(keyBytes, name, value.clone(), append));
        if (append) {
            lastKey = keyBytes;
        }
        if (label >= 0) {
            labels.write(label);
        }
        count++;
        bytes += value.length;
        if (pending.size() >= batchSamples || pendingBytes >= batchBytes) {
            commitBatch();
        }
    }

    private byte[] keyBytes(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        if (b.length == 0 || b.length > MAX_KEY_BYTES) {
            throw new LmdbException("key " + name + " is " + b.length + " bytes: LMDB keys are 1 to "
                    + MAX_KEY_BYTES + " bytes (environment at " + path + ")");
        }
        return b;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the LMDB writer of " + path + " is closed");
        }
    }

    /** Puts one entry into the batch's transaction, growing the map when LMDB says it is full. */
    private void put(Entry e) {
        pending.add(e);
        pendingBytes += e.value().length;
        try {
            if (txn == null) {
                txn = env.txnWrite();
            }
            putInto(txn, e);
        } catch (Env.MapFullException full) {
            growAndReplay();
        } catch (RuntimeException failure) {
            throw fail("cannot write key " + e.name() + " to the LMDB environment at " + path, failure);
        }
    }

    private void putInto(Txn<ByteBuffer> t, Entry e) {
        key.clear().put(e.key()).flip();
        PutFlags[] flags = e.append() ? new PutFlags[] {PutFlags.MDB_APPEND} : new PutFlags[] {PutFlags.MDB_NOOVERWRITE};
        ByteBuffer into;
        try {
            into = dbi.reserve(t, key, e.value().length, flags);
        } catch (Dbi.KeyExistsException exists) {
            throw new LmdbException(path, "key " + e.name() + " is written twice to the LMDB environment at " + path
                    + " (the layout gives two samples one key, or a sample the size or labels key)", exists);
        }
        into.put(e.value());
    }

    /** Commits the batch, growing the map and writing the batch again when the commit finds it full. */
    private void commitBatch() {
        if (txn == null) {
            return;
        }
        while (true) {
            try {
                Txn<ByteBuffer> t = txn;
                txn = null;
                t.commit(); // a failed commit is aborted by LMDB itself
                t.close();
                break;
            } catch (Env.MapFullException full) {
                growAndReplay();
            } catch (RuntimeException failure) {
                throw fail("cannot commit " + pending.size() + " values (keys " + pending.getFirst().name() + " to "
                        + pending.getLast().name() + ") to the LMDB environment at " + path, failure);
            }
        }
        pending.clear();
        pendingBytes = 0;
    }

    // LMDB's map cannot grow under a transaction, and a transaction that hit MDB_MAP_FULL can only be
    // aborted: end it, double the map, and write the whole batch again, as often as it takes.
    private void growAndReplay() {
        while (true) {
            abortTxn();
            long grown = Math.max(mapSize * 2, mapSize + 2 * pendingBytes);
            if (grown > MAX_MAP_SIZE) {
                throw fail("the LMDB environment at " + path + " would need a map over " + MAX_MAP_SIZE + " bytes",
                        null);
            }
            try {
                env.setMapSize(grown);
                mapSize = env.info().mapSize;
                resizes++;
                txn = env.txnWrite();
                for (Entry e : pending) {
                    putInto(txn, e);
                }
                return;
            } catch (Env.MapFullException full) {
                // still too small: round again
            } catch (RuntimeException failure) {
                throw fail("cannot grow the LMDB environment at " + path + " to a " + grown + "-byte map", failure);
            }
        }
    }

    private void abortTxn() {
        if (txn != null) {
            Txn<ByteBuffer> t = txn;
            txn = null;
            t.close(); // aborts when still open; a no-op after a failed commit
        }
    }

    // A failed write leaves the environment without its size key: release everything now.
    private LmdbException fail(String message, RuntimeException cause) {
        String detail = cause == null ? "" : ": " + (cause.getMessage() == null ? cause.toString() : cause.getMessage());
        LmdbException e = cause instanceof LmdbException own ? own : new LmdbException(message + detail, cause);
        abort();
        return e;
    }

    /**
     * Commits what is pending, writes the size and labels keys, syncs the data file and closes the
     * environment: the environment is published. Idempotent.
     *
     * @throws IllegalStateException after {@link #abort()} or a close without a commit
     * @throws LmdbException when the layout's fixed size differs from the samples written, or the
     *                       final writes fail (the writer is aborted then)
     */
    public void commit() {
        if (committed) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("the LMDB writer of " + path + " was aborted or closed before its commit:"
                    + " nothing was published");
        }
        if (layout.size() >= 0 && layout.size() != count) {
            throw fail("the layout of the LMDB environment at " + path + " says " + layout.size()
                    + " samples, and " + count + " were written", null);
        }
        if (layout.sizeKey() != null) {
            byte[] size = Long.toString(count).getBytes(StandardCharsets.US_ASCII);
            put(new Entry(keyBytes(layout.sizeKey()), layout.sizeKey(), size, false));
        }
        if (layout.labelsKey() != null) {
            put(new Entry(keyBytes(layout.labelsKey()), layout.labelsKey(), labels.toByteArray(), false));
        }
        commitBatch();
        try {
            env.sync(true);
        } catch (RuntimeException e) {
            throw fail("cannot sync the LMDB environment at " + path, e);
        }
        release();
        try {
            // the data file last: until it is in place, the old environment (or none) is what is there
            Path lock = aside.resolve(singleFile ? DATA_FILE + SINGLE_FILE_LOCK_SUFFIX : LOCK_FILE);
            if (Files.exists(lock)) { // liblmdb keeps it beside the data file, as Python's lmdb does
                Files.move(lock, singleFile ? lockFileOf(path) : path.resolve(LOCK_FILE),
                        StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(aside.resolve(DATA_FILE), dataFile(), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            deleteTree(aside);
        } catch (IOException e) {
            deleteTree(aside);
            throw new LmdbException(path, "cannot move the LMDB environment written beside " + path + " into place: " + e, e);
        }
        committed = true;
    }

    /**
     * Ends the writer. After {@link #commit()} it does nothing; without one it aborts, as
     * {@link #abort()} does.
     */
    @Override
    public void close() {
        abort();
    }

    /**
     * Ends the writer without writing the size and labels keys, and deletes what it wrote aside:
     * an environment replaced with {@link Builder#overwrite} stays as it was, and nothing reads a
     * part for the whole. Does nothing after {@link #commit()} or a first abort.
     */
    public void abort() {
        if (!closed) {
            release();
            deleteTree(aside);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a hidden folder beside the path: never read as the environment
        }
    }

    private void release() {
        closed = true;
        abortTxn();
        pending.clear();
        dbi.close();
        env.close();
    }

    @Override
    public String toString() {
        return "LmdbWriter[" + path + ", " + count + " samples]";
    }
}
