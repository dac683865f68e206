package dev.stoker.tensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A dense, row-major array of one {@link DType} over a {@link MemorySegment}.
 *
 * <p>A tensor does not own its memory: it is a view. The segment may come from a
 * {@link dev.stoker.memory.BufferPool pooled buffer}, a memory-mapped file or a Java array;
 * whoever owns that memory decides how long the tensor stays valid. Views along the first axis
 * ({@link #slice}, {@link #select}) share the memory and copy nothing.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined()) {
 *     Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(2, 3));
 *     t.copyFrom(new float[] {1, 2, 3, 4, 5, 6});
 *     t.select(1).getFloat(0);   // 4.0
 *     t.toString();              // tensor(f32, [2, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
 * }
 * }</pre>
 */
public final class Tensor {
    private final MemorySegment segment;
    private final DType dtype;
    private final Shape shape;

    /**
     * Views {@code segment} as a tensor. The segment must hold at least
     * {@code shape.elements() * dtype.byteSize()} bytes; only that many are used.
     */
    public Tensor(MemorySegment segment, DType dtype, Shape shape) {
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        this.shape = Objects.requireNonNull(shape, "shape");
        long bytes = Math.multiplyExact(shape.elements(), (long) dtype.byteSize());
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException("a " + dtype + " tensor of shape " + shape + " needs "
                    + bytes + " bytes but the segment holds " + segment.byteSize());
        }
        this.segment = segment.byteSize() == bytes ? segment : segment.asSlice(0, bytes);
    }

    /** A zero-filled tensor in memory owned by {@code arena}. */
    public static Tensor allocate(Arena arena, DType dtype, Shape shape) {
        long bytes = Math.multiplyExact(shape.elements(), (long) dtype.byteSize());
        return new Tensor(arena.allocate(bytes, 64), dtype, shape);
    }

    public MemorySegment segment() {
        return segment;
    }

    public DType dtype() {
        return dtype;
    }

    public Shape shape() {
        return shape;
    }

    public long elements() {
        return shape.elements();
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** Rows {@code [from, to)} along the first axis, sharing memory. */
    public Tensor slice(long from, long to) {
        long rows = firstDim();
        if (from < 0 || to < from || to > rows) {
            throw new IndexOutOfBoundsException("slice [" + from + ", " + to + ") of a tensor with "
                    + rows + " rows (shape " + shape + ")");
        }
        long rowBytes = rowBytes();
        return new Tensor(segment.asSlice(from * rowBytes, (to - from) * rowBytes), dtype, shape.withFirst(to - from));
    }

    /** Row {@code i} along the first axis, with the first dimension dropped, sharing memory. */
    public Tensor select(long i) {
        long rows = firstDim();
        if (i < 0 || i >= rows) {
            throw new IndexOutOfBoundsException("row " + i + " of a tensor with " + rows
                    + " rows (shape " + shape + ")");
        }
        long rowBytes = rowBytes();
        return new Tensor(segment.asSlice(i * rowBytes, rowBytes), dtype, shape.dropFirst());
    }

    /** The same memory seen with another shape of the same number of elements. */
    public Tensor reshape(Shape newShape) {
        if (newShape.elements() != shape.elements()) {
            throw new IllegalArgumentException("cannot reshape " + shape + " (" + shape.elements()
                    + " elements) to " + newShape + " (" + newShape.elements() + " elements)");
        }
        return new Tensor(segment, dtype, newShape);
    }

    private long firstDim() {
        if (shape.rank() == 0) {
            throw new IllegalStateException("a scalar tensor has no rows");
        }
        return shape.dim(0);
    }

    private long rowBytes() {
        return shape.dropFirst().elements() * dtype.byteSize();
    }

    /** Flat (row-major) position of the element at {@code index}, checked against the shape. */
    public long flatIndex(long... index) {
        if (index.length != shape.rank()) {
            throw new IllegalArgumentException("index of rank " + index.length + " for a tensor of shape " + shape);
        }
        long flat = 0;
        for (int axis = 0; axis < index.length; axis++) {
            long d = shape.dim(axis);
            if (index[axis] < 0 || index[axis] >= d) {
                throw new IndexOutOfBoundsException("index " + index[axis] + " on axis " + axis
                        + " of a tensor of shape " + shape);
            }
            flat = flat * d + index[axis];
        }
        return flat;
    }

    private long offset(long flat) {
        if (flat < 0 || flat >= shape.elements()) {
            throw new IndexOutOfBoundsException("element " + flat + " of a tensor of " + shape.elements() + " elements");
        }
        return flat * dtype.byteSize();
    }

    /** The element at a flat position, as a double (exact for every type but i64/u64 beyond 2^53). */
    public double getDouble(long flat) {
        long off = offset(flat);
        return switch (dtype) {
            case BOOL, I8 -> segment.get(ValueLayout.JAVA_BYTE, off);
            case U8 -> Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, off));
            case I16 -> segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, off);
            case U16 -> Short.toUnsignedInt(segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
            case F16 -> HalfFloats.f16ToFloat(segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
            case BF16 -> HalfFloats.bf16ToFloat(segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
            case I32 -> segment.get(ValueLayout.JAVA_INT_UNALIGNED, off);
            case F32 -> segment.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off);
            case I64 -> segment.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
            case F64 -> segment.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, off);
        };
    }

    /** The element at a flat position as a long (floats truncated toward zero). */
    public long getLong(long flat) {
        long off = offset(flat);
        return switch (dtype) {
            case BOOL, I8 -> segment.get(ValueLayout.JAVA_BYTE, off);
            case U8 -> Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, off));
            case I16 -> segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, off);
            case U16 -> Short.toUnsignedInt(segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, off));
            case I32 -> segment.get(ValueLayout.JAVA_INT_UNALIGNED, off);
            case I64 -> segment.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
            default -> (long) getDouble(flat);
        };
    }

    public float getFloat(long flat) {
        return dtype == DType.F32 ? segment.get(ValueLayout.JAVA_FLOAT_UNALIGNED, offset(flat)) : (float) getDouble(flat);
    }

    /** The element at a multi-dimensional index, as a double. */
    public double get(long... index) {
        return getDouble(flatIndex(index));
    }

    /** Stores {@code value} at a flat position, converting to the tensor's type as a cast would. */
    public void setDouble(long flat, double value) {
        long off = offset(flat);
        switch (dtype) {
            case BOOL -> segment.set(ValueLayout.JAVA_BYTE, off, (byte) (value != 0 ? 1 : 0));
            case U8, I8 -> segment.set(ValueLayout.JAVA_BYTE, off, (byte) (long) value);
            case I16, U16 -> segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) (long) value);
            case F16 -> segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, HalfFloats.floatToF16((float) value));
            case BF16 -> segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, HalfFloats.floatToBf16((float) value));
            case I32 -> segment.set(ValueLayout.JAVA_INT_UNALIGNED, off, (int) (long) value);
            case F32 -> segment.set(ValueLayout.JAVA_FLOAT_UNALIGNED, off, (float) value);
            case I64 -> segment.set(ValueLayout.JAVA_LONG_UNALIGNED, off, (long) value);
            case F64 -> segment.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, off, value);
        }
    }

    /** Stores {@code value} at a flat position; exact for every integer type. */
    public void setLong(long flat, long value) {
        long off = offset(flat);
        switch (dtype) {
            case BOOL -> segment.set(ValueLayout.JAVA_BYTE, off, (byte) (value != 0 ? 1 : 0));
            case U8, I8 -> segment.set(ValueLayout.JAVA_BYTE, off, (byte) value);
            case I16, U16 -> segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) value);
            case I32 -> segment.set(ValueLayout.JAVA_INT_UNALIGNED, off, (int) value);
            case I64 -> segment.set(ValueLayout.JAVA_LONG_UNALIGNED, off, value);
            default -> setDouble(flat, value);
        }
    }

    public void setFloat(long flat, float value) {
        if (dtype == DType.F32) {
            segment.set(ValueLayout.JAVA_FLOAT_UNALIGNED, offset(flat), value);
        } else {
            setDouble(flat, value);
        }
    }

    /** Copies {@code source}'s bytes into this tensor; both must have the same dtype and element count. */
    public void copyFrom(Tensor source) {
        if (source.dtype != dtype || source.elements() != elements()) {
            throw new IllegalArgumentException("cannot copy a " + source.dtype + " tensor of shape " + source.shape
                    + " into a " + dtype + " tensor of shape " + shape);
        }
        MemorySegment.copy(source.segment, 0, segment, 0, segment.byteSize());
    }

    // Copies in and out of Java arrays: a straight memory copy when the array's type is the
    // tensor's own, an element-wise cast otherwise.

    public void copyFrom(float[] values) {
        checkLength(values.length);
        if (dtype == DType.F32) {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, values.length);
        } else {
            for (int i = 0; i < values.length; i++) setDouble(i, values[i]);
        }
    }

    public void copyFrom(double[] values) {
        checkLength(values.length);
        if (dtype == DType.F64) {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, values.length);
        } else {
            for (int i = 0; i < values.length; i++) setDouble(i, values[i]);
        }
    }

    public void copyFrom(long[] values) {
        checkLength(values.length);
        if (dtype == DType.I64) {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_LONG_UNALIGNED, 0, values.length);
        } else {
            for (int i = 0; i < values.length; i++) setLong(i, values[i]);
        }
    }

    public void copyFrom(int[] values) {
        checkLength(values.length);
        if (dtype == DType.I32) {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_INT_UNALIGNED, 0, values.length);
        } else {
            for (int i = 0; i < values.length; i++) setLong(i, values[i]);
        }
    }

    public void copyFrom(short[] values) {
        checkLength(values.length);
        if (dtype.byteSize() == 2 && !dtype.isFloatingPoint()) {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_SHORT_UNALIGNED, 0, values.length);
        } else {
            for (int i = 0; i < values.length; i++) setLong(i, values[i]);
        }
    }

    public void copyFrom(byte[] values) {
        checkLength(values.length);
        if (dtype.byteSize() == 1) {
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_BYTE, 0, values.length);
        } else {
            for (int i = 0; i < values.length; i++) setLong(i, values[i]);
        }
    }

    public void copyFrom(boolean[] values) {
        checkLength(values.length);
        for (int i = 0; i < values.length; i++) setLong(i, values[i] ? 1 : 0);
    }

    public float[] toFloatArray() {
        float[] out = new float[arrayLength()];
        if (dtype == DType.F32) {
            MemorySegment.copy(segment, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, out, 0, out.length);
        } else {
            for (int i = 0; i < out.length; i++) out[i] = (float) getDouble(i);
        }
        return out;
    }

    public double[] toDoubleArray() {
        double[] out = new double[arrayLength()];
        if (dtype == DType.F64) {
            MemorySegment.copy(segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, out, 0, out.length);
        } else {
            for (int i = 0; i < out.length; i++) out[i] = getDouble(i);
        }
        return out;
    }

    public long[] toLongArray() {
        long[] out = new long[arrayLength()];
        if (dtype == DType.I64) {
            MemorySegment.copy(segment, ValueLayout.JAVA_LONG_UNALIGNED, 0, out, 0, out.length);
        } else {
            for (int i = 0; i < out.length; i++) out[i] = getLong(i);
        }
        return out;
    }

    public int[] toIntArray() {
        int[] out = new int[arrayLength()];
        if (dtype == DType.I32) {
            MemorySegment.copy(segment, ValueLayout.JAVA_INT_UNALIGNED, 0, out, 0, out.length);
        } else {
            for (int i = 0; i < out.length; i++) out[i] = (int) getLong(i);
        }
        return out;
    }

    public byte[] toByteArray() {
        byte[] out = new byte[arrayLength()];
        if (dtype.byteSize() == 1) {
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
        } else {
            for (int i = 0; i < out.length; i++) out[i] = (byte) getLong(i);
        }
        return out;
    }

    private void checkLength(int length) {
        if (length != shape.elements()) {
            throw new IllegalArgumentException("an array of " + length + " values does not fit a tensor of shape "
                    + shape + " (" + shape.elements() + " elements)");
        }
    }

    private int arrayLength() {
        if (shape.elements() > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a tensor of " + shape.elements()
                    + " elements is too large for a Java array; copy it in slices");
        }
        return (int) shape.elements();
    }

    /** Like NumPy's repr: dtype, shape, and the values, elided past six. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("tensor(").append(dtype).append(", ").append(shape).append(", [");
        long n = elements();
        int shown = 3;
        for (long i = 0; i < n; i++) {
            if (n > 2 * shown && i == shown) {
                sb.append("..., ");
                i = n - shown;
            }
            sb.append(format(i));
            if (i < n - 1) sb.append(", ");
        }
        return sb.append("])").toString();
    }

    private String format(long flat) {
        if (dtype == DType.BOOL) return getLong(flat) != 0 ? "true" : "false";
        if (dtype.isFloatingPoint()) return Float.toString((float) getDouble(flat));
        return Long.toString(getLong(flat));
    }
}
