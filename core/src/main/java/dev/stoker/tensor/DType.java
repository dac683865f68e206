package dev.stoker.tensor;

import java.lang.foreign.ValueLayout;
import java.util.Locale;

/**
 * The element types a {@link Tensor} can hold, with NumPy's names.
 *
 * <p>Elements are stored in native byte order (little-endian on every platform Stoker runs on),
 * without alignment requirements, so a tensor can sit on a memory-mapped file at any offset.
 * {@code F16} and {@code BF16} are stored as their 16-bit patterns and read and written as
 * {@code float}.
 *
 * <pre>{@code
 * DType t = DType.parse("float32");   // F32
 * long bytes = t.byteSize() * 1024;   // 4096
 * }</pre>
 */
public enum DType {
    BOOL("bool", 1, false, false),
    U8("uint8", 1, false, false),
    I8("int8", 1, true, false),
    I16("int16", 2, true, false),
    U16("uint16", 2, false, false),
    I32("int32", 4, true, false),
    I64("int64", 8, true, false),
    F16("float16", 2, true, true),
    BF16("bfloat16", 2, true, true),
    F32("float32", 4, true, true),
    F64("float64", 8, true, true);

    private final String numpyName;
    private final int byteSize;
    private final boolean signed;
    private final boolean floating;

    DType(String numpyName, int byteSize, boolean signed, boolean floating) {
        this.numpyName = numpyName;
        this.byteSize = byteSize;
        this.signed = signed;
        this.floating = floating;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** NumPy's name for this type, e.g. {@code "float32"}. */
    public String numpyName() {
        return numpyName;
    }

    public boolean isFloatingPoint() {
        return floating;
    }

    public boolean isSigned() {
        return signed;
    }

    /** The layout that reads one element's bits (unaligned, native order). */
    public ValueLayout layout() {
        return switch (this) {
            case BOOL, U8, I8 -> ValueLayout.JAVA_BYTE;
            case I16, U16, F16, BF16 -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case I32 -> ValueLayout.JAVA_INT_UNALIGNED;
            case F32 -> ValueLayout.JAVA_FLOAT_UNALIGNED;
            case I64 -> ValueLayout.JAVA_LONG_UNALIGNED;
            case F64 -> ValueLayout.JAVA_DOUBLE_UNALIGNED;
        };
    }

    /**
     * Finds a type by Stoker's short name ({@code f32}), NumPy's name ({@code float32}) or
     * the enum name, case-insensitively.
     *
     * @throws IllegalArgumentException naming the accepted names when none matches
     */
    public static DType parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (DType t : values()) {
            if (t.numpyName.equals(n) || t.name().toLowerCase(Locale.ROOT).equals(n)) {
                return t;
            }
        }
        return switch (n) {
            case "float", "half" -> n.equals("float") ? F32 : F16;
            case "double" -> F64;
            case "long" -> I64;
            case "int" -> I32;
            case "byte" -> I8;
            case "short" -> I16;
            default -> throw new IllegalArgumentException("unknown dtype '" + name
                    + "': expected one of bool, u8, i8, i16, u16, i32, i64, f16, bf16, f32, f64"
                    + " (or NumPy's names such as float32)");
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
