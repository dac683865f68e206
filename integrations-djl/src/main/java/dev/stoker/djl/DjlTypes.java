package dev.stoker.djl;

import ai.djl.engine.Engine;
import ai.djl.ndarray.types.DataType;
import dev.stoker.tensor.DType;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Stoker's element types and DJL's {@link DataType}s, one for one, and which of them an engine
 * can hold.
 *
 * <p>Every Stoker {@link DType} has a DJL name, but DJL's PyTorch engine (0.35) makes tensors of
 * eight of them only: {@code f32, f64, f16, u8, i8, i32, i64, bool}. Its native code has no case
 * for {@code bf16}, {@code i16} or {@code u16} and would abort the JVM on them, so
 * {@link #checkEngineTakes} refuses them first, with the way out in the message.
 *
 * <pre>{@code
 * DjlTypes.toDjl(DType.F32);                      // FLOAT32
 * DjlTypes.fromDjl(DataType.INT64);               // I64
 * DjlTypes.engineTakes("PyTorch", DType.BF16);    // false
 * }</pre>
 */
public final class DjlTypes {
    /** The name {@link Engine#getEngineName()} gives for DJL's PyTorch engine. */
    public static final String PYTORCH = "PyTorch";

    /** What PyTorch's JNI bridge turns into a torch scalar type (djl_pytorch_utils.h, GetScalarTypeFromDType). */
    private static final Set<DType> PYTORCH_TYPES =
            EnumSet.of(DType.F32, DType.F64, DType.F16, DType.U8, DType.I8, DType.I32, DType.I64, DType.BOOL);

    private DjlTypes() {}

    /** DJL's name for {@code dtype}; same width, same bits, native byte order. */
    public static DataType toDjl(DType dtype) {
        return switch (dtype) {
            case BOOL -> DataType.BOOLEAN;
            case U8 -> DataType.UINT8;
            case I8 -> DataType.INT8;
            case I16 -> DataType.INT16;
            case U16 -> DataType.UINT16;
            case I32 -> DataType.INT32;
            case I64 -> DataType.INT64;
            case F16 -> DataType.FLOAT16;
            case BF16 -> DataType.BFLOAT16;
            case F32 -> DataType.FLOAT32;
            case F64 -> DataType.FLOAT64;
        };
    }

    /**
     * Stoker's name for {@code type}.
     *
     * @throws IllegalArgumentException for DJL types Stoker has no tensor of (strings, complex,
     *     unsigned 32 and 64 bit, unknown)
     */
    public static DType fromDjl(DataType type) {
        return switch (type) {
            case BOOLEAN -> DType.BOOL;
            case UINT8 -> DType.U8;
            case INT8 -> DType.I8;
            case INT16 -> DType.I16;
            case UINT16 -> DType.U16;
            case INT32 -> DType.I32;
            case INT64 -> DType.I64;
            case FLOAT16 -> DType.F16;
            case BFLOAT16 -> DType.BF16;
            case FLOAT32 -> DType.F32;
            case FLOAT64 -> DType.F64;
            default -> throw new IllegalArgumentException("DJL type " + type
                    + " has no Stoker dtype; Stoker has bool, u8, i8, i16, u16, i32, i64, f16, bf16, f32, f64");
        };
    }

    /**
     * Whether the engine named {@code engineName} can hold tensors of {@code dtype}. Only the
     * PyTorch engine's limits are known here; any other engine is trusted to say for itself.
     */
    public static boolean engineTakes(String engineName, DType dtype) {
        return !PYTORCH.equals(engineName) || PYTORCH_TYPES.contains(dtype);
    }

    /**
     * Checks {@link #engineTakes}.
     *
     * @param what names the tensor in the message, e.g. {@code "field 'image'"}
     * @throws IllegalArgumentException naming the tensor, its dtype, the engine and what it takes
     */
    public static void checkEngineTakes(String engineName, DType dtype, String what) {
        if (!engineTakes(engineName, dtype)) {
            throw new IllegalArgumentException(what + " is " + dtype + " (" + dtype.numpyName() + "), which DJL's "
                    + engineName + " engine cannot hold; it takes " + describe(PYTORCH_TYPES)
                    + ". Make the dataset give " + suggestion(dtype) + " instead");
        }
    }

    private static String suggestion(DType dtype) {
        return switch (dtype) {
            case BF16 -> "f32 (or f16)";
            case I16 -> "i32";
            case U16 -> "i32";
            default -> "one of those";
        };
    }

    private static String describe(Set<DType> types) {
        return types.stream().map(t -> t.toString().toLowerCase(Locale.ROOT)).toList().toString();
    }
}
