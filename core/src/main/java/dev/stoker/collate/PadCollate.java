package dev.stoker.collate;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Collates variable-length sequences by padding them to the longest in the batch, like PyTorch's
 * {@code pad_sequence(batch_first=True)}, and keeps each true length beside them.
 *
 * <p>A sequence is a {@code long[] int[] float[] double[] short[] byte[] boolean[]} (dtype as in
 * {@link DefaultCollate}: {@code byte[]} is {@code u8}), or a {@link Tensor} of rank one or more,
 * padded along its first axis; its other dimensions must agree across the batch. By default each
 * sample is the sequence; with {@link Builder#field(String)} the sequence is one component of a
 * record (or one key of a map), with {@link Builder#position(int)} one element of a list, and the
 * sample's other fields are collated by {@link DefaultCollate} into {@link PaddedBatch#rest()}.
 *
 * <pre>{@code
 * // token sequences with a class label: (padded (64, maxLen) i64, labels (64) i64, lengths (64) i64)
 * record Sequence(long[] tokens, long label) {}
 * PadCollate pad = PadCollate.builder().field("tokens").padValue(0).build();
 * Collate<Sequence> collate = pad::collate;
 * PaddedBatch b = pad.collate(samples, memory);
 * Tensor tokens = b.padded();          // (64, maxLen) i64, zeros after each sequence
 * Tensor labels = b.tensor("label");   // (64) i64
 * Tensor lengths = b.lengths();        // (64) i64
 * }</pre>
 *
 * <p>Thread-safe and stateless between calls: one instance serves every worker.
 */
public final class PadCollate implements Collate<Object> {
    private final double padValue;
    private final String field;
    private final int position;
    private final DefaultCollate restCollate;

    private PadCollate(Builder b) {
        this.padValue = b.padValue;
        this.field = b.field;
        this.position = b.position;
        this.restCollate = b.restCollate;
    }

    /** Pads samples that are themselves sequences with zeros. */
    public static PadCollate of() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Pads the samples' sequences and collates their other fields, taking tensors from {@code memory}.
     * The raw {@code List} lets {@code pad::collate} serve as a {@code Collate<T>} of any {@code T};
     * see {@link DefaultCollate#collate}.
     *
     * @throws CollateException naming the field and the sample when a sequence is missing, null, of
     *     another type or dtype, or differs in a dimension other than the first
     */
    @Override
    public PaddedBatch collate(@SuppressWarnings("rawtypes") List samples, BatchMemory memory) {
        List<?> typed = samples;
        CollateContext root = new CollateContext(restCollate, memory, FieldPath.root());
        FieldPath seqPath = field != null ? FieldPath.root().field(field)
                : position >= 0 ? FieldPath.root().element(position) : FieldPath.root();
        CollateContext ctx = new CollateContext(restCollate, memory, seqPath);
        int n = typed.size();
        if (n == 0) {
            throw new CollateException("cannot pad " + seqPath + ": there are no samples");
        }
        Object[] sequences = new Object[n];
        List<Object> rests = field == null && position < 0 ? null : new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object sample = typed.get(i);
            if (sample == null) {
                throw root.fail("sample " + i + " is null");
            }
            sequences[i] = split(sample, i, typed.getFirst(), rests, ctx);
        }
        Sequences seqs = Sequences.check(sequences, ctx);
        MemorySegment pad = PadFill.pattern(seqs.dtype, padValue, ctx);

        Tensor padded = memory.allocate(seqs.dtype, seqs.item.prepend(seqs.maxLength).prepend(n));
        Tensor lengths = memory.allocate(DType.I64, Shape.of(n));
        long itemBytes = seqs.item.elements() * seqs.dtype.byteSize();
        long rowBytes = seqs.maxLength * itemBytes;
        MemorySegment dst = padded.segment();
        for (int i = 0; i < n; i++) {
            long length = seqs.lengths[i];
            long used = length * itemBytes;
            if (sequences[i] instanceof Tensor t) {
                MemorySegment.copy(t.segment(), 0, dst, i * rowBytes, used);
            } else {
                PrimitiveArrays.copy(sequences[i], dst, i * rowBytes);
            }
            PadFill.fill(dst.asSlice(i * rowBytes + used, rowBytes - used), pad);
            lengths.setLong(i, length);
        }
        Object rest = rests == null ? null : restCollate.collate(rests, memory);
        return new PaddedBatch(padded, lengths, rest);
    }

    /** The sequence of {@code sample}; its other fields go to {@code rests}, when there are any. */
    private Object split(Object sample, int i, Object first, List<Object> rests, CollateContext ctx) {
        if (field != null) {
            if (sample instanceof Record) {
                if (sample.getClass() != first.getClass()) {
                    throw ctx.fail("sample 0 is a " + first.getClass().getTypeName() + " but sample " + i + " is a "
                            + sample.getClass().getTypeName());
                }
                RecordComponents components = RecordComponents.of(sample.getClass());
                int index = components.indexOf(field);
                if (index < 0) {
                    throw new CollateException("cannot pad " + ctx.path() + ": record " + sample.getClass().getTypeName()
                            + " has no component '" + field + "'; its components are " + components.names());
                }
                Map<String, Object> others = new LinkedHashMap<>();
                for (int c = 0; c < components.names().size(); c++) {
                    if (c != index) others.put(components.names().get(c), components.get(sample, c, ctx));
                }
                rests.add(others);
                return components.get(sample, index, ctx);
            }
            if (sample instanceof Map<?, ?> map) {
                if (!map.containsKey(field)) {
                    throw new CollateException("cannot pad " + ctx.path() + ": sample " + i + " has no key '" + field
                            + "'; its keys are " + map.keySet());
                }
                Map<Object, Object> others = new LinkedHashMap<>(map);
                others.remove(field);
                rests.add(others);
                return map.get(field);
            }
            throw new CollateException("cannot pad " + ctx.path() + ": sample " + i + " is a "
                    + sample.getClass().getTypeName() + ", which has no fields; field(\"" + field
                    + "\") needs records or maps");
        }
        if (position >= 0) {
            if (!(sample instanceof List<?> list)) {
                throw new CollateException("cannot pad " + ctx.path() + ": sample " + i + " is a "
                        + sample.getClass().getTypeName() + ", not a list; position(" + position + ") needs lists");
            }
            if (position >= list.size()) {
                throw new CollateException("cannot pad " + ctx.path() + ": sample " + i + " has only " + list.size()
                        + " elements");
            }
            List<Object> others = new ArrayList<>(list);
            others.remove(position);
            rests.add(others);
            return list.get(position);
        }
        return sample;
    }

    /** The sequences of a batch, checked to be of one kind: dtype, per-step shape, lengths. */
    private record Sequences(DType dtype, Shape item, long[] lengths, long maxLength) {

        static Sequences check(Object[] sequences, CollateContext ctx) {
            Object first = sequences[0];
            if (first == null) {
                throw new CollateException("cannot pad " + ctx.path() + ": sample 0 is null");
            }
            DType dtype;
            Shape item;
            if (first instanceof Tensor t) {
                if (t.shape().rank() == 0) {
                    throw new CollateException("cannot pad " + ctx.path() + ": sample 0 is a scalar tensor, not a sequence");
                }
                dtype = t.dtype();
                item = t.shape().dropFirst();
            } else {
                dtype = PrimitiveArrays.dtypeOf(first.getClass());
                item = Shape.scalar();
                if (dtype == null) {
                    boolean structured = first instanceof Record || first instanceof Map || first instanceof List;
                    throw new CollateException("cannot pad " + ctx.path() + ": sample 0 is a "
                            + first.getClass().getTypeName() + "; PadCollate pads long[], int[], float[], double[], "
                            + "short[], byte[], boolean[] or Tensor sequences"
                            + (structured && ctx.path().isRoot()
                                    ? "; name the sequence with PadCollate.builder().field(...) or .position(...)" : ""));
                }
            }
            long[] lengths = new long[sequences.length];
            long max = 0;
            for (int i = 0; i < sequences.length; i++) {
                Object s = sequences[i];
                if (s == null) {
                    throw new CollateException("cannot pad " + ctx.path() + ": sample " + i + " is null");
                }
                if (first instanceof Tensor) {
                    if (!(s instanceof Tensor t)) {
                        throw mismatch(ctx, first, s, i);
                    }
                    if (t.dtype() != dtype) {
                        throw new CollateException("cannot pad " + ctx.path() + ": sample 0 is " + dtype
                                + " but sample " + i + " is " + t.dtype());
                    }
                    if (t.shape().rank() == 0 || !t.shape().dropFirst().equals(item)) {
                        throw new CollateException("cannot pad " + ctx.path() + ": sample 0 has shape "
                                + ((Tensor) first).shape() + " but sample " + i + " has shape " + t.shape()
                                + "; only the first dimension may differ");
                    }
                    lengths[i] = t.shape().dim(0);
                } else {
                    if (s.getClass() != first.getClass()) {
                        throw mismatch(ctx, first, s, i);
                    }
                    lengths[i] = PrimitiveArrays.length(s);
                }
                max = Math.max(max, lengths[i]);
            }
            return new Sequences(dtype, item, lengths, max);
        }

        private static CollateException mismatch(CollateContext ctx, Object first, Object other, int i) {
            return new CollateException("cannot pad " + ctx.path() + ": sample 0 is a " + first.getClass().getTypeName()
                    + " but sample " + i + " is a " + other.getClass().getTypeName());
        }
    }

    /** Settings of a {@link PadCollate}. Defaults: pad with 0, each sample is the sequence. */
    public static final class Builder {
        private double padValue;
        private String field;
        private int position = -1;
        private DefaultCollate restCollate = DefaultCollate.instance();

        private Builder() {}

        /** The value after each sequence's end (converted to the sequences' dtype, which must hold it exactly if an integer type). */
        public Builder padValue(double value) {
            this.padValue = value;
            return this;
        }

        /** The sequence is the record component (or map key) {@code name} of each sample. */
        public Builder field(String name) {
            this.field = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The sequence is the element at {@code index} of each sample, a list. */
        public Builder position(int index) {
            if (index < 0) throw new IllegalArgumentException("position must be >= 0, not " + index);
            this.position = index;
            return this;
        }

        /** How the samples' other fields are collated; {@link DefaultCollate#instance()} unless set. */
        public Builder collateRestWith(DefaultCollate collate) {
            this.restCollate = Objects.requireNonNull(collate, "collate");
            return this;
        }

        public PadCollate build() {
            if (field != null && position >= 0) {
                throw new IllegalStateException("set field(\"" + field + "\") or position(" + position + "), not both");
            }
            return new PadCollate(this);
        }
    }
}
