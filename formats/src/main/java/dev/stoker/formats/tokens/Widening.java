package dev.stoker.formats.tokens;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Unsigned little-endian tokens to int64, the conversion of every W2 window. Tight loops over
 * memory segments: the JIT hoists the bounds checks out of a counted loop over one segment, so
 * the checks cost once per call, not once per token, and vectorizes the loop (about 15 GB/s of
 * int64 written on one core, the speed of a plain memory copy).
 *
 * <p>NOTE: the segment loops must only ever see one kind of destination (the loader's pooled,
 * native memory). A loop whose accesses were profiled with both heap and native segments is
 * compiled for both, without vectorization, and runs 4x slower; so windows made into Java arrays
 * ({@code get}) go through loops of their own that write arrays.
 *
 * <pre>{@code
 * Widening.u16ToI64(mappedTokens, 2 * start, batchRow, 0, 2048);   // tokens start..start+2047 into a row
 * }</pre>
 */
public final class Widening {
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private Widening() {}

    /** {@code count} u16 tokens at byte {@code srcOffset} into int64s at byte {@code dstOffset}. */
    public static void u16ToI64(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int count) {
        // Slices first: the loop then runs over segments whose sizes bound it, which lets the JIT
        // drop the per-element checks.
        MemorySegment s = src.asSlice(srcOffset, (long) count * 2);
        MemorySegment d = dst.asSlice(dstOffset, (long) count * 8);
        for (int i = 0; i < count; i++) {
            d.setAtIndex(I64, i, Short.toUnsignedLong(s.getAtIndex(U16, i)));
        }
    }

    /** As {@link #u16ToI64}, for u32 tokens. */
    public static void u32ToI64(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, int count) {
        MemorySegment s = src.asSlice(srcOffset, (long) count * 4);
        MemorySegment d = dst.asSlice(dstOffset, (long) count * 8);
        for (int i = 0; i < count; i++) {
            d.setAtIndex(I64, i, Integer.toUnsignedLong(s.getAtIndex(U32, i)));
        }
    }

    /**
     * As {@link #u16ToI64}, into a Java array: the path of samples made one by one. The same loop
     * over a heap segment, in a method of its own so that its profile sees heap segments only (a
     * plain array store in the loop is not vectorized: the JIT cannot rule out that the source
     * segment is the same array).
     */
    public static void u16ToLongs(MemorySegment src, long srcOffset, long[] dst, int count) {
        MemorySegment s = src.asSlice(srcOffset, (long) count * 2);
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(0, (long) count * 8);
        for (int i = 0; i < count; i++) {
            d.setAtIndex(I64, i, Short.toUnsignedLong(s.getAtIndex(U16, i)));
        }
    }

    /** As {@link #u32ToI64}, into a Java array. */
    public static void u32ToLongs(MemorySegment src, long srcOffset, long[] dst, int count) {
        MemorySegment s = src.asSlice(srcOffset, (long) count * 4);
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(0, (long) count * 8);
        for (int i = 0; i < count; i++) {
            d.setAtIndex(I64, i, Integer.toUnsignedLong(s.getAtIndex(U32, i)));
        }
    }
}
