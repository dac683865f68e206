package dev.stoker.collate;

import dev.stoker.tensor.Shape;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Collator} gets besides its values: the batch's memory, where the values sit in
 * the samples (for error messages), and the way back into the dispatcher for the parts of a
 * container.
 *
 * <pre>{@code
 * // a collator for a pair type, collating each half as the default collate would
 * Collator pairs = (values, ctx) -> List.of(
 *         ctx.collateField("left", values.stream().map(v -> ((Pair) v).left()).toList()),
 *         ctx.collateField("right", values.stream().map(v -> ((Pair) v).right()).toList()));
 * }</pre>
 */
public final class CollateContext {
    private final DefaultCollate dispatcher;
    private final BatchMemory memory;
    private final FieldPath path;

    CollateContext(DefaultCollate dispatcher, BatchMemory memory, FieldPath path) {
        this.dispatcher = dispatcher;
        this.memory = Objects.requireNonNull(memory, "memory");
        this.path = path;
    }

    /** Where output tensors come from: the memory of the batch being built. */
    public BatchMemory memory() {
        return memory;
    }

    /** Where the values being collated sit inside each sample. */
    public FieldPath path() {
        return path;
    }

    /** Notes that the values here are arrays of {@code bytes} each on the Java heap ({@link HumongousSamples}). */
    void noteHeapArrays(long bytes) {
        dispatcher.humongous().note(bytes, path);
    }

    /** Collates the values of the field {@code name} (one per sample) with the same dispatcher. */
    public Object collateField(String name, List<?> values) {
        return dispatcher.dispatch(values, new CollateContext(dispatcher, memory, path.field(name)));
    }

    /** Collates the element at {@code index} of a sequence (one value per sample) with the same dispatcher. */
    public Object collateElement(int index, List<?> values) {
        return dispatcher.dispatch(values, new CollateContext(dispatcher, memory, path.element(index)));
    }

    /** An error about these values: {@code cannot collate <path>: <detail>}. */
    public CollateException fail(String detail) {
        return new CollateException("cannot collate " + path + ": " + detail);
    }

    /** The error for samples whose shapes differ where they must be equal to be stacked. */
    public CollateException shapeMismatch(int sample, Shape first, Shape other) {
        return new CollateException("cannot stack " + path + ": sample 0 has shape " + first + " but sample "
                + sample + " has shape " + other + "; use PadCollate for variable-length samples");
    }

    /** A type's name for a message: {@code float[]}, {@code java.lang.String}. */
    static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getTypeName();
    }
}
