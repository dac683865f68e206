package dev.stoker.formats.mds;

import dev.stoker.tensor.DType;
import java.util.Locale;

/**
 * The numeric element types of MDS (its scalar encodings and ndarray dtypes), with the byte code
 * the dynamic {@code ndarray} encoding writes, and the Stoker {@link DType} each is read as.
 *
 * <p>Stoker has no unsigned 32- or 64-bit type. {@code uint32} is widened to {@code int64}: every
 * value fits, so nothing is lost and batches keep one dtype per field. {@code uint64} is also read
 * as {@code int64} where the value is below 2^63, and refused with an {@link MdsFormatException}
 * naming the sample and column where it is not: silently wrapping to a negative number would turn
 * a token id or a count into garbage that trains without complaint.
 */
enum MdsNumber {
    U8(8, "uint8", DType.U8),
    I8(9, "int8", DType.I8),
    U16(16, "uint16", DType.U16),
    I16(17, "int16", DType.I16),
    F16(18, "float16", DType.F16),
    U32(32, "uint32", DType.I64),
    I32(33, "int32", DType.I32),
    F32(34, "float32", DType.F32),
    U64(64, "uint64", DType.I64),
    I64(65, "int64", DType.I64),
    F64(66, "float64", DType.F64);

    private final int code;
    private final String numpyName;
    private final DType dtype;

    MdsNumber(int code, String numpyName, DType dtype) {
        this.code = code;
        this.numpyName = numpyName;
        this.dtype = dtype;
    }

    /** The byte the dynamic {@code ndarray} encoding writes for this type. */
    int code() {
        return code;
    }

    /** The type a tensor of {@code dtype} is written as, or null where MDS has none (bool, bfloat16). */
    static MdsNumber of(DType dtype) {
        for (MdsNumber n : values()) {
            if (n.dtype == dtype && !n.widens()) {
                return n;
            }
        }
        return null;
    }

    /** Bytes per element as stored. */
    int byteSize() {
        return switch (this) {
            case U8, I8 -> 1;
            case U16, I16, F16 -> 2;
            case U32, I32, F32 -> 4;
            case U64, I64, F64 -> 8;
        };
    }

    /** The dtype the values are read as. */
    DType dtype() {
        return dtype;
    }

    /** Whether reading widens the stored values (uint32, uint64 to int64) instead of viewing them. */
    boolean widens() {
        return this == U32 || this == U64;
    }

    boolean isFloatingPoint() {
        return this == F16 || this == F32 || this == F64;
    }

    String numpyName() {
        return numpyName;
    }

    /** The type with NumPy name {@code name}, or null. */
    static MdsNumber byName(String name) {
        for (MdsNumber n : values()) {
            if (n.numpyName.equals(name)) {
                return n;
            }
        }
        return null;
    }

    /** The type the dynamic ndarray encoding writes as {@code code}, or null. */
    static MdsNumber byCode(int code) {
        for (MdsNumber n : values()) {
            if (n.code == code) {
                return n;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return numpyName.toLowerCase(Locale.ROOT);
    }
}
