package dev.stoker.collate;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Fills memory with one element value repeated, for the padding after each sequence. */
final class PadFill {
    private PadFill() {}

    /**
     * The bytes of one {@code dtype} element holding {@code value}, or null when they are all zero
     * (then a plain zero fill does). Integer types must hold the value exactly: a pad of -1 in a
     * {@code u8} batch or 0.5 in an {@code i64} one would silently become another number.
     */
    static MemorySegment pattern(DType dtype, double value, CollateContext ctx) {
        MemorySegment bytes = MemorySegment.ofArray(new byte[dtype.byteSize()]);
        Tensor one = new Tensor(bytes, dtype, Shape.of(1));
        one.setDouble(0, value);
        if (!dtype.isFloatingPoint() && one.getDouble(0) != value) {
            throw new CollateException("cannot pad " + ctx.path() + ": the pad value " + value + " is not a "
                    + dtype + " value");
        }
        for (int i = 0; i < bytes.byteSize(); i++) {
            if (bytes.getAtIndex(ValueLayout.JAVA_BYTE, i) != 0) {
                return bytes;
            }
        }
        return null;
    }

    /** Fills {@code region} with {@code pattern} repeated (zeros when null); the region is a whole number of elements. */
    static void fill(MemorySegment region, MemorySegment pattern) {
        long size = region.byteSize();
        if (size == 0) {
            return;
        }
        if (pattern == null) {
            region.fill((byte) 0);
            return;
        }
        // Write one element, then double the filled prefix by copying it onto itself: log(n) bulk copies.
        long filled = pattern.byteSize();
        MemorySegment.copy(pattern, 0, region, 0, filled);
        while (filled < size) {
            long chunk = Math.min(filled, size - filled);
            MemorySegment.copy(region, 0, region, filled, chunk);
            filled += chunk;
        }
    }
}
