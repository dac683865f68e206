package dev.stoker.formats.lmdb;

/**
 * A sample of an {@link LmdbDataset}: the value stored under its key, copied out of the read
 * transaction (so it stays valid after it), and its label.
 *
 * @param index the sample's index in the dataset
 * @param key   the key it was read under, for error messages and reports
 * @param value the stored bytes (still encoded: JPEG bytes in W8's layout)
 * @param label its class id from the labels key, or -1 when the layout has none
 */
public record LmdbSample(long index, String key, byte[] value, int label) {}
