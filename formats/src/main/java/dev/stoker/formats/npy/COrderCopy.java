package dev.stoker.formats.npy;

import dev.stoker.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Copies a {@code .npy} array's data into C order and native byte order: a plain copy, a copy that
 * swaps each element, or, for a Fortran-order (column-major) array, one transposing copy that
 * swaps on the way. Stoker's tensors are C order, native byte order; NumPy reads all of these.
 */
final class COrderCopy {
    private COrderCopy() {
    }

    /**
     * Writes the {@code shape.elements()} elements of {@code width} bytes that start at
     * {@code offset} of {@code from}, in byte order {@code order} and (when {@code fortran})
     * column-major, into {@code to} from byte 0, in C order and native byte order.
     */
    static void copy(MemorySegment from, long offset, ByteOrder order, int width, Shape shape, boolean fortran,
                     MemorySegment to) {
        long bytes = shape.elements() * width;
        boolean swap = width > 1 && order != ByteOrder.nativeOrder();
        if (!fortran || shape.rank() < 2) {
            if (!swap) {
                MemorySegment.copy(from, offset, to, 0, bytes);
            } else {
                // a copy between layouts of different byte orders swaps each element
                ValueLayout layout = layout(width);
                MemorySegment.copy(from, layout.withOrder(order), offset, to,
                        layout.withOrder(ByteOrder.nativeOrder()), 0, bytes / width);
            }
            return;
        }
        transpose(from, offset, order, width, shape, to);
    }

    /**
     * The C-order walk over the destination: its last axis is the innermost loop, which in the
     * Fortran-order source steps by the product of all the other dimensions; an odometer over the
     * outer axes moves the source's start of each run.
     */
    private static void transpose(MemorySegment from, long offset, ByteOrder order, int width, Shape shape,
                                  MemorySegment to) {
        int rank = shape.rank();
        long elements = shape.elements();
        if (elements == 0) {
            return;
        }
        long[] stride = new long[rank]; // the source's stride of each axis, in elements
        stride[0] = 1;
        for (int k = 1; k < rank; k++) {
            stride[k] = stride[k - 1] * shape.dim(k - 1);
        }
        long run = shape.dim(rank - 1);
        long step = stride[rank - 1] * width;
        long[] index = new long[rank];
        long start = 0; // the source element where the current run starts
        for (long out = 0; out < elements; out += run) {
            run(from, offset + start * width, step, order, width, to, out * width, run);
            for (int k = rank - 2; k >= 0; k--) {
                start += stride[k];
                if (++index[k] < shape.dim(k)) {
                    break;
                }
                start -= stride[k] * shape.dim(k);
                index[k] = 0;
            }
        }
    }

    /** {@code count} elements, {@code step} bytes apart in {@code from}, side by side into {@code to}. */
    private static void run(MemorySegment from, long at, long step, ByteOrder order, int width, MemorySegment to,
                            long toAt, long count) {
        switch (width) {
            case 1 -> {
                for (long i = 0; i < count; i++) {
                    to.set(ValueLayout.JAVA_BYTE, toAt + i, from.get(ValueLayout.JAVA_BYTE, at + i * step));
                }
            }
            case 2 -> {
                ValueLayout.OfShort in = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order);
                for (long i = 0; i < count; i++) {
                    to.set(ValueLayout.JAVA_SHORT_UNALIGNED, toAt + i * 2, from.get(in, at + i * step));
                }
            }
            case 4 -> {
                ValueLayout.OfInt in = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
                for (long i = 0; i < count; i++) {
                    to.set(ValueLayout.JAVA_INT_UNALIGNED, toAt + i * 4, from.get(in, at + i * step));
                }
            }
            case 8 -> {
                ValueLayout.OfLong in = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order);
                for (long i = 0; i < count; i++) {
                    to.set(ValueLayout.JAVA_LONG_UNALIGNED, toAt + i * 8, from.get(in, at + i * step));
                }
            }
            default -> throw new AssertionError("element width " + width);
        }
    }

    private static ValueLayout layout(int width) {
        return switch (width) {
            case 2 -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case 4 -> ValueLayout.JAVA_INT_UNALIGNED;
            case 8 -> ValueLayout.JAVA_LONG_UNALIGNED;
            default -> throw new AssertionError("element width " + width);
        };
    }
}
