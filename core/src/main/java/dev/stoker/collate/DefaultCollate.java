package dev.stoker.collate;

import dev.stoker.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * PyTorch's {@code default_collate} for Java: puts a batch's samples together by the type of the
 * first sample, recursively, through a registry of {@link Collator}s (exact class first, then the
 * latest-registered class it is assignable to).
 *
 * <table>
 *   <caption>What each sample type becomes, for {@code n} samples</caption>
 *   <tr><th>sample</th><th>batch</th></tr>
 *   <tr><td>{@link Tensor} (same dtype and shape)</td><td>tensor {@code (n, ...shape)}</td></tr>
 *   <tr><td>{@code float[] double[] long[] int[] short[] byte[] boolean[]} (same length)</td>
 *       <td>tensor {@code (n, length)} of f32, f64, i64, i32, i16, u8, bool</td></tr>
 *   <tr><td>{@code Double}, {@code Float}</td><td>tensor {@code (n)} f64, f32</td></tr>
 *   <tr><td>{@code Long Integer Short Byte}</td><td>tensor {@code (n)} i64 (as Python's int)</td></tr>
 *   <tr><td>{@code Boolean}</td><td>tensor {@code (n)} bool</td></tr>
 *   <tr><td>{@code String}, any {@code CharSequence}</td><td>{@code List<String>}</td></tr>
 *   <tr><td>a record</td><td>{@code Map<String, Object>}: component name to its collated values</td></tr>
 *   <tr><td>{@code Map} (same keys)</td><td>{@code Map}: key to its collated values</td></tr>
 *   <tr><td>{@code List} (same size, a tuple)</td><td>{@code List}: one collated value per position</td></tr>
 * </table>
 *
 * <p>Tensors come from the batch's {@link BatchMemory}. {@code byte[]} is read as {@code u8}, not
 * {@code i8}: a byte array in a dataset is nearly always pixels or raw bytes, which PyTorch and NumPy
 * hold as {@code uint8} (Java's byte is signed only for want of an unsigned one; a caller who means
 * {@code int8} views the result as {@code I8} without a copy). Anything else, or a null, fails with a
 * {@link CollateException} naming the field and the sample. Samples of different lengths fail
 * too: pad them with {@link PadCollate}.
 *
 * <p>Per-sample tensors and arrays on the Java heap of half a G1 region or more (a 224x224 f32
 * image under 1 MiB regions) are humongous objects, which can grow the heap to several times the
 * samples in flight; the first such batch logs a hint at {@code INFO} (logger
 * {@code dev.stoker.collate.DefaultCollate}) naming the field and the region size that would hold them.
 *
 * <pre>{@code
 * record Sample(Tensor image, long label) {}
 * Collate<Sample> collate = DefaultCollate.instance()::collate;
 * Map<?, ?> batch = (Map<?, ?>) collate.collate(samples, memory);
 * Tensor images = (Tensor) batch.get("image");   // (32, 3, 224, 224) f32
 * Tensor labels = (Tensor) batch.get("label");   // (32) i64
 *
 * // one more type, or another treatment of a built-in one
 * DefaultCollate custom = DefaultCollate.builder().register(Point.class, pointCollator).build();
 * }</pre>
 *
 * <p>Thread-safe and stateless between calls: one instance serves every worker.
 */
public final class DefaultCollate implements Collate<Object> {
    private static final DefaultCollate INSTANCE = builder().build();

    private final CollatorRegistry registry;
    private final HumongousSamples humongous = HumongousSamples.ofThisJvm();

    private DefaultCollate(Map<Class<?>, Collator> registrations) {
        this.registry = new CollatorRegistry(registrations);
    }

    /** Where the built-in stackers note per-sample arrays on the heap (one hint per collate). */
    HumongousSamples humongous() {
        return humongous;
    }

    /** The default collate with the built-in types only. */
    public static DefaultCollate instance() {
        return INSTANCE;
    }

    /** A builder holding the built-in collators, to which more can be registered. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Collates {@code samples}, one per position in the batch, taking tensors from {@code memory}.
     *
     * <p>NOTE: the parameter is a raw {@code List} on purpose. Taking {@code List<?>} would make
     * this method clash with {@link Collate#collate}{@code (List<Object>, ...)} instead of
     * implementing it; the raw type both implements {@code Collate<Object>} and accepts a
     * {@code List<T>} of any {@code T}, so {@code DefaultCollate.instance()::collate} is a
     * {@code Collate<T>} for every sample type.
     *
     * @throws CollateException when the samples cannot be collated; the message names the field,
     *     the sample and what differed
     */
    @Override
    public Object collate(@SuppressWarnings("rawtypes") List samples, BatchMemory memory) {
        List<?> typed = samples;
        return dispatch(typed, new CollateContext(this, memory, FieldPath.root()));
    }

    /** Dispatches on the first value's class, after checking every value is a non-null instance of the entry's class. */
    Object dispatch(List<?> values, CollateContext ctx) {
        if (values.isEmpty()) {
            throw ctx.fail("there are no samples");
        }
        Object first = values.getFirst();
        if (first == null) {
            throw ctx.fail("sample 0 is null");
        }
        CollatorRegistry.Entry entry = registry.find(first.getClass());
        if (entry == null) {
            throw ctx.fail("no collator for type " + first.getClass().getTypeName() + " (sample 0); register one with "
                    + "DefaultCollate.builder().register(" + first.getClass().getSimpleName() + ".class, collator)");
        }
        for (int i = 1; i < values.size(); i++) {
            Object v = values.get(i);
            if (v == null) {
                throw ctx.fail("sample " + i + " is null");
            }
            if (!entry.type().isInstance(v)) {
                throw ctx.fail("sample 0 is a " + first.getClass().getTypeName() + " but sample " + i + " is a "
                        + v.getClass().getTypeName());
            }
        }
        return entry.collator().collate(values, ctx);
    }

    /** The registry of a {@link DefaultCollate}; starts with the built-in collators. */
    public static final class Builder {
        private final Map<Class<?>, Collator> registrations = new LinkedHashMap<>();

        private Builder() {
            register(Tensor.class, TensorStacker.INSTANCE);
            for (Class<?> array : List.of(float[].class, double[].class, long[].class, int[].class,
                    short[].class, byte[].class, boolean[].class)) {
                register(array, new ArrayStacker(array));
            }
            register(Double.class, ScalarCollator.F64);
            register(Float.class, ScalarCollator.F32);
            register(Long.class, ScalarCollator.I64);
            register(Integer.class, ScalarCollator.I64);
            register(Short.class, ScalarCollator.I64);
            register(Byte.class, ScalarCollator.I64);
            register(Boolean.class, ScalarCollator.BOOL);
            register(CharSequence.class, StringCollator.INSTANCE);
            register(Record.class, RecordCollator.INSTANCE);
            register(Map.class, MapCollator.INSTANCE);
            register(List.class, ListCollator.INSTANCE);
        }

        /**
         * Collates values of {@code type} (and, failing an exact match, of its subtypes) with
         * {@code collator}. Registering a class again replaces its collator; among classes a value
         * is assignable to, the latest registered wins.
         */
        public Builder register(Class<?> type, Collator collator) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(collator, "collator");
            registrations.remove(type); // re-insert last: the latest registration has priority
            registrations.put(type, collator);
            return this;
        }

        public DefaultCollate build() {
            return new DefaultCollate(new LinkedHashMap<>(registrations));
        }
    }
}
