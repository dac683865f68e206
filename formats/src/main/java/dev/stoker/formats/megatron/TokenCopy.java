package dev.stoker.formats.megatron;

import dev.stoker.formats.tokens.Widening;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Tokens of one Megatron dtype, little-endian in the {@code .bin}, to int64: one tight loop per
 * dtype, the type switched on once per call, not per token.
 *
 * <p>As in {@link Widening}, heap arrays ({@link #toLongs}) and segments, the loader's pooled
 * memory ({@link #toSegment}), go through loops of their own: a loop profiled with both kinds of
 * destination is not vectorized.
 */
final class TokenCopy {
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private TokenCopy() {}

    /** {@code count} tokens of {@code type} at byte {@code at} of {@code bin} into {@code dst[0, count)}. */
    static void toLongs(MegatronDType type, MemorySegment bin, long at, long[] dst, int count) {
        switch (type) {
            case UINT16 -> Widening.u16ToLongs(bin, at, dst, count);
            case INT64 -> MemorySegment.copy(bin, LE64, at, dst, 0, count);
            case INT32 -> {
                for (int k = 0; k < count; k++) {
                    dst[k] = bin.get(LE32, at + 4L * k);
                }
            }
            case INT16 -> {
                for (int k = 0; k < count; k++) {
                    dst[k] = bin.get(LE16, at + 2L * k);
                }
            }
            case UINT8 -> {
                for (int k = 0; k < count; k++) {
                    dst[k] = Byte.toUnsignedLong(bin.get(ValueLayout.JAVA_BYTE, at + k));
                }
            }
            case INT8 -> {
                for (int k = 0; k < count; k++) {
                    dst[k] = bin.get(ValueLayout.JAVA_BYTE, at + k);
                }
            }
        }
    }

    /** {@code count} tokens of {@code type} at byte {@code at} of {@code bin} into int64s at byte {@code off} of {@code dst}. */
    static void toSegment(MegatronDType type, MemorySegment bin, long at, MemorySegment dst, long off, int count) {
        switch (type) {
            case UINT16 -> Widening.u16ToI64(bin, at, dst, off, count);
            case INT64 -> MemorySegment.copy(bin, LE64, at, dst, I64, off, count);
            case INT32 -> {
                for (int k = 0; k < count; k++) {
                    dst.set(I64, off + 8L * k, bin.get(LE32, at + 4L * k));
                }
            }
            case INT16 -> {
                for (int k = 0; k < count; k++) {
                    dst.set(I64, off + 8L * k, bin.get(LE16, at + 2L * k));
                }
            }
            case UINT8 -> {
                for (int k = 0; k < count; k++) {
                    dst.set(I64, off + 8L * k, Byte.toUnsignedLong(bin.get(ValueLayout.JAVA_BYTE, at + k)));
                }
            }
            case INT8 -> {
                for (int k = 0; k < count; k++) {
                    dst.set(I64, off + 8L * k, bin.get(ValueLayout.JAVA_BYTE, at + k));
                }
            }
        }
    }
}
