package dev.stoker.collate;

import dev.stoker.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * A batch of variable-length sequences padded to the longest, as {@link PadCollate} makes it.
 *
 * @param padded  the sequences, shape {@code (n, maxLength, ...)}, each row padded after its end
 * @param lengths each sequence's true length, shape {@code (n)}, {@code i64}
 * @param rest    the samples' other fields collated by {@link DefaultCollate}: a
 *                {@code Map<String, Object>} for records and maps (the sequence's field left out),
 *                a {@code List} for lists (the sequence's position left out, the others in order),
 *                or null when each sample is the sequence itself
 *
 * <pre>{@code
 * record Sequence(long[] tokens, long label) {}
 * PaddedBatch b = PadCollate.builder().field("tokens").build().collate(samples, memory);
 * b.padded();          // (64, maxLength) i64
 * b.lengths();         // (64) i64
 * b.tensor("label");   // (64) i64
 * }</pre>
 */
public record PaddedBatch(Tensor padded, Tensor lengths, Object rest) {

    /** The number of sequences. */
    public int size() {
        return (int) lengths.shape().dim(0);
    }

    /** The padded length: the longest sequence's. */
    public long maxLength() {
        return padded.shape().dim(1);
    }

    /** The collated field {@code name} of {@link #rest}, when the samples were records or maps. */
    public Tensor tensor(String name) {
        if (!(rest instanceof Map<?, ?> map)) {
            throw new IllegalStateException("the other fields are " + describeRest() + ", not a map of fields");
        }
        if (!map.containsKey(name)) {
            throw new IllegalArgumentException("no field '" + name + "' besides the sequence; the others are " + map.keySet());
        }
        return asTensor(map.get(name), "field '" + name + "'");
    }

    /** The collated element {@code position} of {@link #rest}, when the samples were lists (positions after the sequence's shift down by one). */
    public Tensor tensor(int position) {
        if (!(rest instanceof List<?> list)) {
            throw new IllegalStateException("the other fields are " + describeRest() + ", not a list of fields");
        }
        if (position < 0 || position >= list.size()) {
            throw new IndexOutOfBoundsException("no element " + position + " besides the sequence; there are " + list.size());
        }
        return asTensor(list.get(position), "element " + position);
    }

    private String describeRest() {
        return rest == null ? "absent (each sample was the sequence itself)" : "a " + rest.getClass().getSimpleName();
    }

    private static Tensor asTensor(Object value, String what) {
        if (value instanceof Tensor t) {
            return t;
        }
        throw new IllegalStateException(what + " is a " + CollateContext.typeName(value) + ", not a tensor");
    }
}
