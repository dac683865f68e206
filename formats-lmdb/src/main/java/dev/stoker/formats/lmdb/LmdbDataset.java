package dev.stoker.formats.lmdb;

import dev.stoker.data.Dataset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A map-style dataset over an LMDB environment: sample {@code i} is the value under the layout's
 * key for {@code i} (W8: {@code "%06d"}), with its label from the layout's labels key. The number
 * of samples and the labels are read once, when it opens. Workers are threads: each reads through
 * a read transaction of its own, reused across its samples ({@link LmdbEnvironment}).
 *
 * <pre>{@code
 * try (LmdbDataset lmdb = LmdbDataset.open(Path.of("data/lmdb"))) {          // W8's layout
 *     LmdbSample s = lmdb.get(0);                                           // s.value(): JPEG bytes
 *     // decoded into batches with the vision module:
 *     // JpegDataset.of(lmdb, x -> EncodedImage.of(x.value(), x.label(), x.key()), pipeline)
 * }
 * }</pre>
 *
 * <p>A key that is missing gives an {@link LmdbException} naming the path, the index and the key.
 *
 * <p>NOTE: the data file must not be truncated or rewritten in place while the dataset is open:
 * liblmdb reads its memory map in native code, where a page cut away under the map kills the JVM
 * ({@code SIGBUS}) instead of failing the read (see the package documentation). Replace a
 * database by renaming a new one over it, then reopen.
 */
public final class LmdbDataset implements Dataset<LmdbSample>, AutoCloseable {
    private final LmdbEnvironment env;
    private final LmdbLayout layout;
    private final long size;
    private final byte[] labels;

    private LmdbDataset(LmdbEnvironment env, LmdbLayout layout, long size, byte[] labels) {
        this.env = env;
        this.layout = layout;
        this.size = size;
        this.labels = labels;
    }

    /** Opens the environment at {@code path} in W8's layout ({@link LmdbLayout#w8()}). */
    public static LmdbDataset open(Path path) {
        return open(path, LmdbLayout.w8());
    }

    /**
     * Opens the environment at {@code path} and reads the size and labels the layout names.
     *
     * @throws LmdbException naming the path (and key) for a missing or corrupt environment, a
     *                       missing or malformed size key, or labels of the wrong length
     */
    public static LmdbDataset open(Path path, LmdbLayout layout) {
        Objects.requireNonNull(layout, "layout");
        return of(LmdbEnvironment.open(path), layout);
    }

    /**
     * As {@link #open(Path, LmdbLayout)}, without the structural check of the file
     * ({@link LmdbEnvironment#openTrusted}): for files this process or a trusted tool wrote, when
     * the check's cost on a database of many small values matters. A damaged file can then crash
     * the JVM.
     */
    public static LmdbDataset openTrusted(Path path, LmdbLayout layout) {
        Objects.requireNonNull(layout, "layout");
        return of(LmdbEnvironment.openTrusted(path), layout);
    }

    private static LmdbDataset of(LmdbEnvironment env, LmdbLayout layout) {
        try {
            long size = layout.size() >= 0 ? layout.size() : readSize(env, layout.sizeKey());
            byte[] labels = layout.labelsKey() == null ? null : readLabels(env, layout.labelsKey(), size);
            env.releaseThread(); // the opening thread is rarely a reader: end its transaction
            return new LmdbDataset(env, layout, size, labels);
        } catch (RuntimeException e) {
            env.close();
            throw e;
        }
    }

    private static long readSize(LmdbEnvironment env, String key) {
        byte[] value = env.get(key);
        if (value == null) {
            throw new LmdbException(env.path(), key, "the LMDB environment at " + env.path() + " has no key " + key
                    + " (the number of samples); give the size in the layout instead");
        }
        String text = new String(value, StandardCharsets.US_ASCII).strip();
        try {
            long n = Long.parseLong(text);
            if (n < 0) {
                throw new NumberFormatException("negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new LmdbException(env.path(), key, "key " + key + " of the LMDB environment at " + env.path()
                    + " is not a sample count in ASCII decimal: " + abbreviate(text), e);
        }
    }

    private static byte[] readLabels(LmdbEnvironment env, String key, long size) {
        byte[] value = env.get(key);
        if (value == null) {
            throw new LmdbException(env.path(), key, "the LMDB environment at " + env.path() + " has no key " + key
                    + " (one uint8 label per sample); open it with a layout without labels instead");
        }
        if (value.length != size) {
            throw new LmdbException(env.path(), key, "key " + key + " of the LMDB environment at " + env.path() + " holds "
                    + value.length + " labels for " + size + " samples");
        }
        return value;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? '"' + s + '"' : '"' + s.substring(0, 40) + "...\"";
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public LmdbSample get(long index) {
        Objects.checkIndex(index, size);
        String key = layout.keys().apply(index);
        byte[] value = env.get(key.getBytes(StandardCharsets.UTF_8), key);
        if (value == null) {
            throw new LmdbException(env.path(), key, "the LMDB environment at " + env.path() + " has no key " + key
                    + " (sample " + index + " of " + size + ")");
        }
        int label = labels == null ? -1 : Byte.toUnsignedInt(labels[(int) index]);
        return new LmdbSample(index, key, value, label);
    }

    /** The label of sample {@code index} without reading its value, or -1 when there are no labels. */
    public int label(long index) {
        Objects.checkIndex(index, size);
        return labels == null ? -1 : Byte.toUnsignedInt(labels[(int) index]);
    }

    /** The environment underneath, for raw reads. */
    public LmdbEnvironment environment() {
        return env;
    }

    @Override
    public String name() {
        return "lmdb:" + env.path();
    }

    /** Closes the environment: every read transaction ends; reads after it throw. */
    @Override
    public void close() {
        env.close();
    }
}
