package dev.stoker.tensor;

import java.util.Arrays;

/**
 * The dimensions of a tensor, outermost first. Immutable.
 *
 * <pre>{@code
 * Shape s = Shape.of(32, 3, 224, 224);
 * s.elements();        // 4816896
 * s.dropFirst();       // [3, 224, 224]
 * s.withFirst(16);     // [16, 3, 224, 224]
 * }</pre>
 */
public final class Shape {
    private static final Shape SCALAR = new Shape(new long[0]);
    private final long[] dims;
    private final long elements;

    private Shape(long[] dims) {
        long n = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new IllegalArgumentException("dimension " + i + " of shape "
                        + Arrays.toString(dims) + " is negative");
            }
            n = Math.multiplyExact(n, dims[i]);
        }
        this.dims = dims;
        this.elements = n;
    }

    public static Shape of(long... dims) {
        return dims.length == 0 ? SCALAR : new Shape(dims.clone());
    }

    public static Shape of(int... dims) {
        return of(Arrays.stream(dims).asLongStream().toArray());
    }

    public static Shape scalar() {
        return SCALAR;
    }

    public int rank() {
        return dims.length;
    }

    public long dim(int axis) {
        return dims[axis];
    }

    /** Product of the dimensions: 1 for a scalar. */
    public long elements() {
        return elements;
    }

    public long[] toArray() {
        return dims.clone();
    }

    /** The shape of one row: every dimension but the first. */
    public Shape dropFirst() {
        if (dims.length == 0) {
            throw new IllegalStateException("a scalar has no first dimension to drop");
        }
        return new Shape(Arrays.copyOfRange(dims, 1, dims.length));
    }

    /** This shape with {@code n} put in front: the shape of a batch of {@code n} of these. */
    public Shape prepend(long n) {
        long[] d = new long[dims.length + 1];
        d[0] = n;
        System.arraycopy(dims, 0, d, 1, dims.length);
        return new Shape(d);
    }

    /** This shape with its first dimension replaced by {@code n}. */
    public Shape withFirst(long n) {
        if (dims.length == 0) {
            throw new IllegalStateException("a scalar has no first dimension");
        }
        long[] d = dims.clone();
        d[0] = n;
        return new Shape(d);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    @Override
    public String toString() {
        return Arrays.toString(dims);
    }
}
