package dev.stoker.vision;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * One still-encoded image with its label, as a source dataset gives it to {@link JpegDataset}:
 * the file's bytes (on the heap, or off-heap such as a slice of a memory-mapped tar shard: the
 * decoder copies a mapped slice into its own buffer first, so that a shard cut short under its map
 * is a named error rather than a fault inside the native decoder), the class, and a key that names
 * it in errors.
 *
 * <pre>{@code
 * EncodedImage e = EncodedImage.of(Files.readAllBytes(path), 3, path.toString());
 * }</pre>
 *
 * @param bytes the encoded file (JPEG, or PNG and the other formats ImageIO reads)
 * @param label the class index
 * @param key   the file path or sample key, for messages
 */
public record EncodedImage(MemorySegment bytes, long label, String key) {
    public EncodedImage {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(key, "key");
    }

    public static EncodedImage of(byte[] bytes, long label, String key) {
        return new EncodedImage(MemorySegment.ofArray(bytes), label, key);
    }
}
