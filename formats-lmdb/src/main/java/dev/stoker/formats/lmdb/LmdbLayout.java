package dev.stoker.formats.lmdb;

import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * Where a dataset finds things in an LMDB environment: the key of each sample, and either the
 * number of samples or the key holding it (ASCII decimal, as {@code b"2000"}), and optionally a
 * key holding one uint8 class id per sample.
 *
 * <pre>{@code
 * LmdbLayout w8 = LmdbLayout.w8();                                    // "%06d", __len__, __labels__
 * LmdbLayout mine = LmdbLayout.pattern("img-%08d").withSize(50_000).withoutLabels();
 * LmdbLayout listed = LmdbLayout.keys(List.of("cat", "dog", "emu"));
 * }</pre>
 *
 * @param keys      the key of sample {@code i}, encoded as UTF-8
 * @param size      the number of samples, or -1 to read it from {@code sizeKey}
 * @param sizeKey   the key holding the number of samples as ASCII decimal (used when size is -1)
 * @param labelsKey the key holding one uint8 label per sample, or null for no labels
 */
public record LmdbLayout(LongFunction<String> keys, long size, String sizeKey, String labelsKey) {
    public LmdbLayout {
        Objects.requireNonNull(keys, "keys");
        if (size < -1) {
            throw new IllegalArgumentException("size " + size);
        }
        if (size == -1 && sizeKey == null) {
            throw new IllegalArgumentException("either a size or a size key");
        }
    }

    /** W8's layout (WORKLOADS.md, data (e)): keys {@code "%06d"}, {@code __len__}, {@code __labels__}. */
    public static LmdbLayout w8() {
        return pattern("%06d");
    }

    /** Keys made by {@code String.format(format, i)}, with W8's {@code __len__} and {@code __labels__}. */
    public static LmdbLayout pattern(String format) {
        Objects.requireNonNull(format, "format");
        String.format(format, 0L); // fail now on a bad pattern, not at the first read
        return new LmdbLayout(i -> String.format(format, i), -1, "__len__", "__labels__");
    }

    /** Exactly these keys, in this order; no labels. */
    public static LmdbLayout keys(List<String> keys) {
        List<String> copy = List.copyOf(keys);
        return new LmdbLayout(i -> copy.get(Math.toIntExact(i)), copy.size(), null, null);
    }

    /** This layout with a known number of samples (no size key read). */
    public LmdbLayout withSize(long n) {
        return new LmdbLayout(keys, n, sizeKey, labelsKey);
    }

    /** This layout with labels read from {@code key}. */
    public LmdbLayout withLabels(String key) {
        return new LmdbLayout(keys, size, sizeKey, Objects.requireNonNull(key, "key"));
    }

    /** This layout with no labels (every sample's label is -1). */
    public LmdbLayout withoutLabels() {
        return new LmdbLayout(keys, size, sizeKey, null);
    }
}
