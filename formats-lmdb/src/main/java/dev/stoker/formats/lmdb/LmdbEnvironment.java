package dev.stoker.formats.lmdb;

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
 * <p>LIMIT: LMDB trusts the structure of its pages. Truncated files, files that are not LMDB and
 * value sizes past the end are refused with an exception; a page whose internal offsets were
 * damaged on purpose can still crash the process (as it does Python's lmdb).
 *
 * <p>The environment must not be written while it is open here (no lock means no reader table to
 * protect a writer's freed pages), the same condition as Python's {@code lock=False}.
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
     * {@code lmdb.open} makes) or the data file itself ({@code subdir=False}).
     *
     * @throws LmdbException naming the path when there is no environment there, it is not an LMDB
     *                       file, or its data file is shorter than its metadata says
     */
    public static LmdbEnvironment open(Path path) {
        Path dataFile;
        List<EnvFlags> flags = new ArrayList<>(List.of(
                EnvFlags.MDB_RDONLY_ENV, EnvFlags.MDB_NOLOCK, EnvFlags.MDB_NORDAHEAD, EnvFlags.MDB_NOTLS));
        if (Files.isDirectory(path)) {
            dataFile = path.resolve(DATA_FILE);
            if (!Files.isRegularFile(dataFile)) {
                throw new LmdbException("no LMDB environment at " + path + ": it has no " + DATA_FILE);
            }
        } else if (Files.isRegularFile(path)) {
            dataFile = path;
            flags.add(EnvFlags.MDB_NOSUBDIR);
        } else {
            throw new LmdbException("no LMDB environment at " + path + ": no such file or directory");
        }
        long fileSize;
        try {
            fileSize = Files.size(dataFile);
        } catch (IOException e) {
            throw new LmdbException("cannot read the LMDB environment at " + path + ": " + e.getMessage(), e);
        }
        Env<ByteBuffer> env;
        try {
            env = Env.create().setMaxDbs(1).open(path.toFile(), flags.toArray(EnvFlags[]::new));
        } catch (ExceptionInInitializerError | IllegalAccessError | NoClassDefFoundError e) {
            throw new LmdbException("cannot open the LMDB environment at " + path
                    + ": lmdbjava needs the JVM flags " + JVM_FLAGS + " (" + e + ")", e);
        } catch (RuntimeException e) {
            throw new LmdbException("not a readable LMDB environment at " + path + " (" + fileSize
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
            throw new LmdbException("not a readable LMDB environment at " + path + ": " + e.getMessage(), e);
        }
    }

    // lmdbjava's buffer proxy fails at its first use, with an IllegalAccessError, when the JVM lacks
    // the flags: turn that into a message that says which flags.
    private static void probeBuffers(Path path, Env<ByteBuffer> env) {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            txn.val();
        } catch (IllegalAccessError | ExceptionInInitializerError | NoClassDefFoundError e) {
            throw new LmdbException("cannot read the LMDB environment at " + path
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
            throw new LmdbException("corrupt LMDB environment at " + path + ": its metadata names "
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
            throw new LmdbException("cannot read key " + name + " of the LMDB environment at " + path
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
            throw new LmdbException("corrupt LMDB environment at " + path + ": the value of key " + name + " ("
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
