package dev.stoker.formats.lmdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lmdbjava.CursorIterable;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

/** LMDB environments written by lmdbjava for the tests, and the keys of an environment. */
final class LmdbTestEnvironments {
    private LmdbTestEnvironments() {}

    /**
     * Writes W8's layout into the directory {@code dir}: {@code n} values under {@code "%06d"},
     * value i of {@code sizes[i % sizes.length]} bytes ((i + j) % 251), {@code __len__} and
     * {@code __labels__} (i % 10). Sizes past ~2 KB go to overflow pages.
     */
    static Path writeW8(Path dir, int n, int... sizes) throws IOException {
        Files.createDirectories(dir);
        try (Env<ByteBuffer> env = Env.create().setMapSize(1L << 30).setMaxDbs(1).open(dir.toFile())) {
            Dbi<ByteBuffer> db = env.openDbi((byte[]) null, DbiFlags.MDB_CREATE);
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                byte[] labels = new byte[n];
                for (int i = 0; i < n; i++) {
                    byte[] value = new byte[sizes[i % sizes.length]];
                    for (int j = 0; j < value.length; j++) {
                        value[j] = (byte) ((i + j) % 251);
                    }
                    put(db, txn, String.format("%06d", i).getBytes(StandardCharsets.US_ASCII), value);
                    labels[i] = (byte) (i % 10);
                }
                put(db, txn, "__len__".getBytes(StandardCharsets.US_ASCII),
                        Integer.toString(n).getBytes(StandardCharsets.US_ASCII));
                put(db, txn, "__labels__".getBytes(StandardCharsets.US_ASCII), labels);
                txn.commit();
            }
        }
        Files.deleteIfExists(dir.resolve("lock.mdb"));
        return dir;
    }

    /** Writes one database of sorted duplicates (which Stoker refuses) into {@code dir}. */
    static Path writeDupSort(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Env<ByteBuffer> env = Env.create().setMapSize(1L << 24).setMaxDbs(1).open(dir.toFile())) {
            Dbi<ByteBuffer> db = env.openDbi((byte[]) null, DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT);
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                for (int i = 0; i < 3; i++) {
                    put(db, txn, "k".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) i});
                }
                txn.commit();
            }
        }
        Files.deleteIfExists(dir.resolve("lock.mdb"));
        return dir;
    }

    /** Writes a main database holding key "a" and a named database "sub" (a node of the main one). */
    static Path writeWithNamedDatabase(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Env<ByteBuffer> env = Env.create().setMapSize(1L << 24).setMaxDbs(2).open(dir.toFile())) {
            Dbi<ByteBuffer> main = env.openDbi((byte[]) null, DbiFlags.MDB_CREATE);
            Dbi<ByteBuffer> sub = env.openDbi("sub", DbiFlags.MDB_CREATE);
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                put(main, txn, "a".getBytes(StandardCharsets.US_ASCII), new byte[] {1, 2, 3});
                put(sub, txn, "b".getBytes(StandardCharsets.US_ASCII), new byte[] {4});
                txn.commit();
            }
        }
        Files.deleteIfExists(dir.resolve("lock.mdb"));
        return dir;
    }

    private static void put(Dbi<ByteBuffer> db, Txn<ByteBuffer> txn, byte[] key, byte[] value) {
        ByteBuffer k = ByteBuffer.allocateDirect(key.length).put(key).flip();
        ByteBuffer v = ByteBuffer.allocateDirect(value.length).put(value).flip();
        db.put(txn, k, v);
    }

    /** Every key of a valid environment, in order (through lmdbjava's cursor). */
    static List<byte[]> keys(Path env) {
        List<byte[]> keys = new ArrayList<>();
        try (Env<ByteBuffer> e = Env.create().setMaxDbs(1).open(env.toFile(),
                EnvFlags.MDB_RDONLY_ENV, EnvFlags.MDB_NOLOCK);
             Txn<ByteBuffer> txn = e.txnRead()) {
            Dbi<ByteBuffer> db = e.openDbi((byte[]) null);
            try (CursorIterable<ByteBuffer> all = db.iterate(txn)) {
                for (CursorIterable.KeyVal<ByteBuffer> kv : all) {
                    byte[] key = new byte[kv.key().remaining()];
                    kv.key().duplicate().get(key);
                    keys.add(key);
                }
            }
        }
        return keys;
    }
}
