package dev.stoker.collate;

import dev.stoker.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The Java primitive arrays collate accepts, the dtype each becomes, and their copy into memory.
 *
 * <p>{@code byte[]} becomes {@link DType#U8}, not {@code I8}: in data loading a byte array is
 * nearly always raw pixels or raw bytes (decoded images, audio samples, token bytes), which
 * PyTorch and NumPy hold as {@code uint8}. Java's {@code byte} is signed only because Java has no
 * unsigned byte; the bits are the same, so a caller who means {@code int8} can view the result as
 * one ({@code new Tensor(t.segment(), DType.I8, t.shape())}) without a copy.
 */
final class PrimitiveArrays {
    private PrimitiveArrays() {}

    /** The dtype of a batch of {@code type} arrays, or null when {@code type} is not one we take. */
    static DType dtypeOf(Class<?> type) {
        if (type == float[].class) return DType.F32;
        if (type == double[].class) return DType.F64;
        if (type == long[].class) return DType.I64;
        if (type == int[].class) return DType.I32;
        if (type == short[].class) return DType.I16;
        if (type == byte[].class) return DType.U8;
        if (type == boolean[].class) return DType.BOOL;
        return null;
    }

    static int length(Object array) {
        return switch (array) {
            case float[] a -> a.length;
            case double[] a -> a.length;
            case long[] a -> a.length;
            case int[] a -> a.length;
            case short[] a -> a.length;
            case byte[] a -> a.length;
            case boolean[] a -> a.length;
            default -> throw new IllegalArgumentException("not a supported primitive array: "
                    + CollateContext.typeName(array));
        };
    }

    /** Copies the whole array to {@code dst} at byte {@code offset}, in the dtype {@link #dtypeOf} gives. */
    static void copy(Object array, MemorySegment dst, long offset) {
        switch (array) {
            case float[] a -> MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_FLOAT_UNALIGNED, offset, a.length);
            case double[] a -> MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_DOUBLE_UNALIGNED, offset, a.length);
            case long[] a -> MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_LONG_UNALIGNED, offset, a.length);
            case int[] a -> MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_INT_UNALIGNED, offset, a.length);
            case short[] a -> MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_SHORT_UNALIGNED, offset, a.length);
            case byte[] a -> MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_BYTE, offset, a.length);
            case boolean[] a -> {
                // no bulk copy exists for boolean[]; store 0 or 1 as PyTorch's bool does
                for (int i = 0; i < a.length; i++) {
                    dst.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (a[i] ? 1 : 0));
                }
            }
            default -> throw new IllegalArgumentException("not a supported primitive array: "
                    + CollateContext.typeName(array));
        }
    }
}
