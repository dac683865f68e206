package dev.stoker.formats.megatron;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The element type of a Megatron-LM indexed dataset's {@code .bin}, by the code its {@code .idx}
 * stores in byte 17 (Megatron's {@code DType} enum). Tokens are integers, so only the six integer
 * types are read and written; the two float codes (6, 7) are known, and refused as not tokens.
 * Megatron's own tools write {@link #UINT16} for vocabularies under 65,500 and {@link #INT32} above.
 */
public enum MegatronDType {
    UINT8(1, 1),
    INT8(2, 1),
    INT16(3, 2),
    INT32(4, 4),
    INT64(5, 8),
    UINT16(8, 2);

    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final int code;
    private final int bytes;

    MegatronDType(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    /** The code in the {@code .idx} header. */
    public int code() {
        return code;
    }

    /** Bytes per token in the {@code .bin}. */
    public int bytes() {
        return bytes;
    }

    /** The smallest token this type holds. */
    public long min() {
        return switch (this) {
            case UINT8, UINT16 -> 0;
            case INT8 -> Byte.MIN_VALUE;
            case INT16 -> Short.MIN_VALUE;
            case INT32 -> Integer.MIN_VALUE;
            case INT64 -> Long.MIN_VALUE;
        };
    }

    /** The largest token this type holds. */
    public long max() {
        return switch (this) {
            case UINT8 -> 0xFF;
            case INT8 -> Byte.MAX_VALUE;
            case INT16 -> Short.MAX_VALUE;
            case UINT16 -> 0xFFFF;
            case INT32 -> Integer.MAX_VALUE;
            case INT64 -> Long.MAX_VALUE;
        };
    }

    /** NumPy's name of the type, as Megatron's enum spells it. */
    public String numpyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The type of {@code code}, or null for a code that is not an integer type of Megatron's. */
    static MegatronDType ofCode(int code) {
        for (MegatronDType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }

    /** Writes {@code token}, already checked to fit, at byte {@code offset} of {@code out}. */
    void write(MemorySegment out, long offset, long token) {
        switch (this) {
            case UINT8, INT8 -> out.set(ValueLayout.JAVA_BYTE, offset, (byte) token);
            case INT16, UINT16 -> out.set(LE16, offset, (short) token);
            case INT32 -> out.set(LE32, offset, (int) token);
            case INT64 -> out.set(LE64, offset, token);
        }
    }
}
