package dev.stoker.data;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one sample of a {@link FillableDataset} looks like, declared before any memory is taken:
 * its fields, each with a name, a dtype and a shape. The loader allocates each field's batch
 * tensor once, {@code (n, ...shape)}, from its pool, and the dataset writes every sample
 * straight into its row: FFCV's "declare, then allocate".
 *
 * <p>The batch comes out as {@link dev.stoker.collate.DefaultCollate} would make it from the
 * equivalent samples: with {@link #of} a map from field name to batch tensor, in field order
 * (what it makes of a record or a map); with {@link #tuple} a list of batch tensors (what it
 * makes of a list, PyTorch's tuple); with {@link #single} the one field's tensor itself (what it
 * makes of samples that are a bare tensor or array). A scalar field ({@link Shape#scalar()}) becomes a tensor
 * {@code (n)}.
 *
 * <pre>{@code
 * // record Sample(Tensor image, long label) collates to {image: (n, 3, 224, 224) f32, label: (n) i64}
 * SampleLayout layout = SampleLayout.of(
 *         new SampleLayout.Field("image", DType.F32, Shape.of(3, 224, 224)),
 *         new SampleLayout.Field("label", DType.I64, Shape.scalar()));
 * layout.sampleBytes();   // 602,120
 * }</pre>
 *
 * @param form   whether the batch is a map or a list of tensors
 * @param fields the fields, in order; at least one, names unique
 */
public record SampleLayout(Form form, List<Field> fields) {

    /** The shape of the batch's value. */
    public enum Form {
        /** A {@code Map<String, Object>} from field name to batch tensor, as records and maps collate. */
        MAP,
        /** A {@code List<Object>} of batch tensors in field order, as lists (tuples) collate. */
        LIST,
        /** The one field's batch tensor itself, as samples that are bare tensors or arrays collate. */
        TENSOR
    }

    /**
     * One field of a sample.
     *
     * @param name  its name: the batch map's key, and what error messages call it
     * @param dtype its element type
     * @param shape its shape in one sample; the batch tensor is {@code (n, ...shape)}
     */
    public record Field(String name, DType dtype, Shape shape) {
        public Field {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(dtype, "dtype");
            Objects.requireNonNull(shape, "shape");
        }

        /** Bytes of this field in one sample. */
        public long bytes() {
            return Math.multiplyExact(shape.elements(), (long) dtype.byteSize());
        }

        @Override
        public String toString() {
            return name + ": " + dtype + " " + shape;
        }
    }

    public SampleLayout {
        Objects.requireNonNull(form, "form");
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a sample layout needs at least one field");
        }
        Set<String> names = new HashSet<>();
        for (Field f : fields) {
            if (!names.add(f.name())) {
                throw new IllegalArgumentException("the field name '" + f.name() + "' is used twice in " + fields);
            }
        }
        if (form == Form.TENSOR && fields.size() != 1) {
            throw new IllegalArgumentException("a layout whose batch is one tensor has one field, not " + fields);
        }
    }

    /** A layout whose batch is a map from field name to tensor, as a record sample collates. */
    public static SampleLayout of(Field... fields) {
        return new SampleLayout(Form.MAP, List.of(fields));
    }

    /** A layout whose batch is a list of tensors, as a list (tuple) sample collates. */
    public static SampleLayout tuple(Field... fields) {
        return new SampleLayout(Form.LIST, List.of(fields));
    }

    /** A layout whose batch is the field's tensor itself, as bare tensor or array samples collate. */
    public static SampleLayout single(Field field) {
        return new SampleLayout(Form.TENSOR, List.of(field));
    }

    /** The number of fields. */
    public int size() {
        return fields.size();
    }

    public Field field(int position) {
        return fields.get(position);
    }

    /** The position of the field named {@code name}, or -1 when there is none. */
    public int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Bytes of one sample, all fields together. */
    public long sampleBytes() {
        long total = 0;
        for (Field f : fields) {
            total = Math.addExact(total, f.bytes());
        }
        return total;
    }

    @Override
    public String toString() {
        String inner = String.join(", ", fields.stream().map(Field::toString).toList());
        return switch (form) {
            case MAP -> "{" + inner + "}";
            case LIST -> "(" + inner + ")";
            case TENSOR -> inner;
        };
    }
}
