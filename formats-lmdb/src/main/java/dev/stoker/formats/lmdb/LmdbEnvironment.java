package dev.stoker.formats.lmdb;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.EnvInfo;
import org.lmdbjava.Stat;
import org.lmdbjava.Txn;

/**
 * An LMDB environment opened read-only for many reader threads: no lock file, no readahead, as
 * Python's {@code lmdb.open(path, readonly=True, lock=False, readahead=False)}. Each thread reads
 * through a read transaction of its own, opened at its first read and reused for every read after
 * (not one per value); {@link #close()} ends them all and closes the environment.
 *
 * <pre>{@code
 * try (LmdbEnvironment env = LmdbEnvironment.open(Path.of("data/lmdb"))) {
 *     byte[] first = env.get("000000");   // a copy: valid after the transaction moves on
 * }
 * }</pre>
 *
 * <p>Values are found in place (lmdbjava's zero-copy buffers over the map), checked to lie inside
 * the data file, and copied into a fresh {@code byte[]}: a value read in place is only valid
 * inside its transaction, and a sample outlives it. The copy costs far less than decoding the JPEG
 * it usually holds. The check matters: a damaged value size would otherwise send the copy past the
 * end of the file, and a read there is a SIGBUS that kills the JVM.
 *
 * <p>Every file is untrusted: liblmdb trusts the page numbers and offsets inside its map, and one
 * damaged offset would make it read outside the map and kill the JVM (as it kills Python's lmdb).
 * So {@link #open(Path)} first checks the file's structure in Java, reading every branch and leaf
 * page of the main database once (not the values' overflow pages): meta pages, page headers, node
 * offsets, key and value extents, overflow page ranges, tree depth, key order and the meta's
 * counts (its overflow count as a range: liblmdb keeps counting a run it reused in place for a
 * smaller value, and pages freed by later transactions are legitimate). A file that fails gets an {@link LmdbException} naming the path, the page, the byte
 * offset and what was wrong; one that passes cannot make liblmdb read outside the file, only give
 * wrong value bytes where value bytes were damaged. The check's cost grows with the number of
 * keys, not the bytes of the values: W8's 1.1 GB of 10,000 JPEG-sized values has 61 tree pages
 * and takes about 30 ms at the first open in a JVM (0.4 s when the file is not in the page cache,
 * against 13 s for the epoch that follows); a million 100-byte values (121 MB, 29,500 pages) take
 * about 0.1 s (0.3 s from disk), a tenth of a bare read of every value. {@link #openTrusted(Path)}
 * skips it, for files this process can vouch for (just written by a trusted writer, say); a
 * damaged one can then crash the JVM.
 *
 * <p>Databases with sorted duplicates ({@code MDB_DUPSORT}), integer or reversed keys in the main
 * database are refused: Stoker reads none of them.
 *
 * <p>The environment must not be written while it is open here (no lock means no reader table to
 * protect a writer's freed pages), the same condition as Python's {@code lock=False}; nor between
 * the check and the open, as the check vouches for the file as it was.
 *
 * <p>NOTE: liblmdb maps the data file and reads the map in native code: a file truncated (or
 * rewritten in place) while an environment is open kills the JVM at the next read of a page past
 * its new end ({@code SIGBUS} in native code cannot be caught, unlike a Java read of a map). The
 * size check at open covers a file that is already short; replace a database by renaming a new
 * one over it, then reopen.
 */
public final class LmdbEnvironment implements AutoCloseable {
    private static final String DATA_FILE = "data.mdb";

    /** The flags a JVM reading LMDB through this class needs (JDK 25). */
    public static final String JVM_FLAGS = "--add-opens java.base/java.nio=ALL-UNNAMED"
            + " --add-exports java.base/sun.nio.ch=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow";
    private static final int MAX_KEY_BYTES = 511; // liblmdb's default mdb_env_get_maxkeysize

    private final Path path;
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> dbi;
    private final long fileSize;
    // Where the data file is mapped (usually one place; two when this process opened it twice, as
    // the two maps are indistinguishable in /proc): a value must lie inside the file at one of them.
    // Empty off Linux, and then values go unchecked.
    private final long[] mapStarts;
    private final Map<Thread, Reader> readers = new ConcurrentHashMap<>();
    // Reads hold the read lock and close holds the write lock, so a close racing a read can never
    // free native memory the read is still using (an exception, not a crash).
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private boolean closed;

    /** A thread's read transaction and a direct buffer for its keys (lmdbjava wants direct keys). */
    private record Reader(Txn<ByteBuffer> txn, ByteBuffer key) {}

    private LmdbEnvironment(Path path, Env<ByteBuffer> env, Dbi<ByteBuffer> dbi, long fileSize, long[] mapStarts) {
        this.path = path;
        this.env = env;
        this.dbi = dbi;
        this.fileSize = fileSize;
        this.mapStarts = mapStarts;
    }

    /**
     * Opens the environment at {@code path}: a directory holding {@code data.mdb} (what Python's
     * {@code lmdb.open} makes) or the data file itself ({@code subdir=False}), after checking the
     * data file's structure (see the class comment).
     *
     * @throws LmdbException naming the path when there is no environment there, it is not an LMDB
     *                       file, or its structure is damaged (naming the page and byte offset)
     */
    public static LmdbEnvironment open(Path path) {
        return open(path, true);
    }

    /**
     * Opens the environment at {@code path} like {@link #open(Path)} but without checking its
     * structure first, for files this process trusts: opening costs nothing per page, but a damaged
     * page can make liblmdb read outside the file and crash the JVM.
     *
     * <pre>{@code
     * LmdbEnvironment env = LmdbEnvironment.openTrusted(Path.of("just-written"));
     * }</pre>
     */
    public static LmdbEnvironment openTrusted(Path path) {
        return open(path, false);
    }

    private static LmdbEnvironment open(Path path, boolean verify) {
        Path dataFile;
        List<EnvFlags> flags = new ArrayList<>(List.of(
                EnvFlags.MDB_RDONLY_ENV, EnvFlags.MDB_NOLOCK, EnvFlags.MDB_NORDAHEAD, EnvFlags.MDB_NOTLS));
        if (Files.isDirectory(path)) {
            dataFile = path.resolve(DATA_FILE);
            if (!Files.exists(dataFile)) {
                throw new LmdbException(path, "no LMDB environment at " + path + ": it has no " + DATA_FILE);
            }
        } else if (Files.exists(path)) {
            dataFile = path;
            flags.add(EnvFlags.MDB_NOSUBDIR);
        } else {
            throw new LmdbException(path, "no LMDB environment at " + path + ": no such file or directory");
        }
        long fileSize;
        try {
            // A FIFO would block liblmdb's open (and the verifier's), a device be read as a file.
            DataFiles.requireRegularFile(dataFile);
            fileSize = Files.size(dataFile);
        } catch (IOException e) {
            throw new LmdbException(path, "cannot read the LMDB environment at " + path + ": " + e.getMessage(), e);
        }
        if (verify) {
            LmdbVerifier.verify(path, dataFile); // before liblmdb reads a byte of it
        }
        Env<ByteBuffer> env;
        try {
            env = Env.create().setMaxDbs(1).open(path.toFile(), flags.toArray(EnvFlags[]::new));
        } catch (ExceptionInInitializerError | IllegalAccessError | NoClassDefFoundError e) {
            throw new LmdbException(path, "cannot open the LMDB environment at " + path
                    + ": lmdbjava needs the JVM flags " + JVM_FLAGS + " (" + e + ")", e);
        } catch (RuntimeException e) {
            throw new LmdbException(path, "not a readable LMDB environment at " + path + " (" + fileSize
                    + "-byte " + DATA_FILE + "): " + e.getMessage(), e);
        }
        try {
            checkSize(path, env, fileSize);
            probeBuffers(path, env);
            Dbi<ByteBuffer> dbi = env.openDbi((byte[]) null);
            return new LmdbEnvironment(path, env, dbi, fileSize, FileMaps.startsOf(dataFile));
        } catch (LmdbException e) {
            env.close();
            throw e;
        } catch (RuntimeException e) {
            env.close();
            throw new LmdbException(path, "not a readable LMDB environment at " + path + ": " + e.getMessage(), e);
        }
    }

    // lmdbjava's buffer proxy fails at its first use, with an IllegalAccessError, when the JVM lacks
    // the flags: turn that into a message that says which flags.
    private static void probeBuffers(Path path, Env<ByteBuffer> env) {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            txn.val();
        } catch (IllegalAccessError | ExceptionInInitializerError | NoClassDefFoundError e) {
            throw new LmdbException(path, "cannot read the LMDB environment at " + path
                    + ": lmdbjava needs the JVM flags " + JVM_FLAGS + " (" + e + ")", e);
        }
    }

    // A truncated data file still opens (its meta pages are at the front), but a page read past its
    // end through the map would raise SIGBUS and kill the JVM: refuse it here instead.
    private static void checkSize(Path path, Env<ByteBuffer> env, long fileSize) {
        EnvInfo info = env.info();
        Stat stat = env.stat();
        long needed = (info.lastPageNumber + 1) * (long) stat.pageSize;
        if (info.lastPageNumber < 1 || stat.pageSize <= 0 || needed > fileSize) {
            throw new LmdbException(path, "corrupt LMDB environment at " + path + ": its metadata names "
                    + (info.lastPageNumber + 1) + " pages of " + stat.pageSize + " bytes (" + needed
                    + " bytes) but the data file holds " + fileSize + " bytes");
        }
    }

    /** Where the environment is, for messages. */
    public Path path() {
        return path;
    }

    /** The value under {@code key} (UTF-8), copied out, or null when there is none. */
    public byte[] get(String key) {
        return get(key.getBytes(StandardCharsets.UTF_8), key);
    }

    /**
     * The value under {@code key}, copied out, or null when there is none.
     *
     * @param name the key as text, for messages
     */
    public byte[] get(byte[] key, String name) {
        ReentrantReadWriteLock.ReadLock read = lock.readLock();
        read.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the LMDB environment at " + path + " is closed (reading key " + name + ")");
            }
            if (key.length == 0 || key.length > MAX_KEY_BYTES) {
                throw new LmdbException("key " + name + " is " + key.length + " bytes: LMDB keys are 1 to "
                        + MAX_KEY_BYTES + " bytes (environment at " + path + ")");
            }
            Reader reader = reader();
            reader.key().clear().put(key).flip();
            ByteBuffer value = dbi.get(reader.txn(), reader.key());
            return value == null ? null : copyOut(value, name);
        } catch (LmdbException | IllegalStateException e) { // already says what and where; closed is a state error
            throw e;
        } catch (RuntimeException e) {
            throw new LmdbException(path, "cannot read key " + name + " of the LMDB environment at " + path
                    + ": " + e.getMessage(), e);
        } finally {
            read.unlock();
        }
    }

    private byte[] copyOut(ByteBuffer value, String name) {
        MemorySegment inMap = MemorySegment.ofBuffer(value);
        long at = inMap.address();
        long size = inMap.byteSize();
        if (!insideFile(at, size)) {
            throw new LmdbException(path, "corrupt LMDB environment at " + path + ": the value of key " + name + " ("
                    + size + " bytes) reaches past the end of the " + fileSize + "-byte data file");
        }
        return inMap.toArray(ValueLayout.JAVA_BYTE);
    }

    private boolean insideFile(long at, long size) {
        if (mapStarts.length == 0) {
            return true;
        }
        for (long start : mapStarts) {
            if (at >= start && at - start <= fileSize && size <= fileSize - (at - start)) {
                return true;
            }
        }
        return false;
    }

    /** Ends the calling thread's read transaction, if it has one (its next read opens another). */
    public void releaseThread() {
        ReentrantReadWriteLock.ReadLock read = lock.readLock();
        read.lock();
        try {
            Reader reader = readers.remove(Thread.currentThread());
            if (reader != null && !closed) {
                reader.txn().close();
            }
        } finally {
            read.unlock();
        }
    }

    /** The number of entries in the main database. */
    public long entries() {
        ReentrantReadWriteLock.ReadLock read = lock.readLock();
        read.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the LMDB environment at " + path + " is closed");
            }
            return env.stat().entries;
        } finally {
            read.unlock();
        }
    }

    /** Read transactions open now, one per thread that has read and is alive (for tests). */
    int openTransactions() {
        return readers.size();
    }

    // Called under the read lock. Threads come and go (non-persistent workers): a new thread's
    // first read also ends the transactions of threads that have died, so they do not pile up.
    private Reader reader() {
        Thread me = Thread.currentThread();
        Reader reader = readers.get(me);
        if (reader != null) {
            return reader;
        }
        for (Map.Entry<Thread, Reader> e : readers.entrySet()) {
            // remove(key, value) succeeds for one thread only: two new threads pruning at once
            // never end the same transaction twice. MDB_NOTLS lets it end on another thread.
            if (!e.getKey().isAlive() && readers.remove(e.getKey(), e.getValue())) {
                e.getValue().txn().close();
            }
        }
        reader = new Reader(env.txnRead(), ByteBuffer.allocateDirect(MAX_KEY_BYTES));
        readers.put(me, reader);
        return reader;
    }

    /** Ends every read transaction and closes the environment; reads after it throw. Idempotent. */
    @Override
    public void close() {
        ReentrantReadWriteLock.WriteLock write = lock.writeLock();
        write.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Reader reader : readers.values()) {
                reader.txn().close();
            }
            readers.clear();
            dbi.close();
            env.close();
        } finally {
            write.unlock();
        }
    }

    @Override
    public String toString() {
        return "LmdbEnvironment[" + path + "]";
    }
}
