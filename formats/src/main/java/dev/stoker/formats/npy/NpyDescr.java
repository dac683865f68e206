package dev.stoker.formats.npy;

import dev.stoker.tensor.DType;
import java.nio.ByteOrder;

/**
 * A {@code .npy} dtype string ({@code descr}, e.g. {@code '<f4'}) as a Stoker {@link DType} and a
 * byte order.
 *
 * <p>Read: {@code b1 u1 i1 i2 u2 i4 i8 f2 f4 f8} in either byte order ({@code <}, {@code >},
 * {@code |} for one-byte types, {@code =} for native). Not read, each with a message that says so:
 * {@code u4} and {@code u8} (Stoker has no unsigned 32- and 64-bit types), complex numbers, object
 * arrays (pickled Python objects), strings ({@code U}, {@code S}), structured and void types, and
 * dates and times.
 *
 * @param descr the string as written in the header
 * @param dtype the element type
 * @param order the byte order of the elements in the file
 */
public record NpyDescr(String descr, DType dtype, ByteOrder order) {

    /** The descr NumPy writes for {@code dtype} in little-endian order, e.g. {@code <f4}, {@code |u1}. */
    public static String little(DType dtype) {
        return switch (dtype) {
            case BOOL -> "|b1";
            case U8 -> "|u1";
            case I8 -> "|i1";
            case I16 -> "<i2";
            case U16 -> "<u2";
            case I32 -> "<i4";
            case I64 -> "<i8";
            case F16 -> "<f2";
            case F32 -> "<f4";
            case F64 -> "<f8";
            case BF16 -> throw new IllegalArgumentException(
                    "NumPy has no bfloat16 dtype, so a bf16 tensor cannot be written as .npy; convert it to f32 first");
        };
    }

    /**
     * Parses a descr string.
     *
     * @param source names the file in the error message
     * @throws NpyFormatException for a type Stoker does not read, saying which and why
     */
    static NpyDescr parse(String descr, String source) throws NpyFormatException {
        String s = descr;
        ByteOrder order = ByteOrder.nativeOrder();
        if (!s.isEmpty() && "<>|=".indexOf(s.charAt(0)) >= 0) {
            char o = s.charAt(0);
            order = o == '>' ? ByteOrder.BIG_ENDIAN : o == '<' ? ByteOrder.LITTLE_ENDIAN : ByteOrder.nativeOrder();
            s = s.substring(1);
        }
        if (s.isEmpty()) {
            throw new NpyFormatException(source, "the dtype '" + descr + "' names no type");
        }
        char kind = s.charAt(0);
        String size = s.substring(1);
        DType dtype = switch (kind) {
            case 'b' -> size.equals("1") ? DType.BOOL : null;
            case '?' -> size.isEmpty() || size.equals("1") ? DType.BOOL : null;
            case 'u' -> switch (size) {
                case "1" -> DType.U8;
                case "2" -> DType.U16;
                case "4", "8" -> throw unsupported(descr, source, "uint" + (Integer.parseInt(size) * 8)
                        + " has no Stoker dtype (Stoker's unsigned types are u8 and u16); "
                        + "save it as a signed type, e.g. a.astype('<i8')");
                default -> null;
            };
            case 'i' -> switch (size) {
                case "1" -> DType.I8;
                case "2" -> DType.I16;
                case "4" -> DType.I32;
                case "8" -> DType.I64;
                default -> null;
            };
            case 'f' -> switch (size) {
                case "2" -> DType.F16;
                case "4" -> DType.F32;
                case "8" -> DType.F64;
                default -> throw unsupported(descr, source, "float" + safeBits(size)
                        + " has no Stoker dtype (f2, f4 and f8 are read)");
            };
            case 'c' -> throw unsupported(descr, source, "complex numbers are not read");
            case 'O' -> throw unsupported(descr, source, "object arrays hold pickled Python objects, which Stoker does"
                    + " not read (and which are unsafe to load from untrusted files)");
            case 'U' -> throw unsupported(descr, source, "unicode string arrays are not read");
            case 'S', 'a' -> throw unsupported(descr, source, "byte string arrays are not read");
            case 'V' -> throw unsupported(descr, source, "void and structured dtypes are not read");
            case 'M', 'm' -> throw unsupported(descr, source, "datetime and timedelta arrays are not read;"
                    + " save them as int64 (a.view('<i8'))");
            default -> null;
        };
        if (dtype == null) {
            throw new NpyFormatException(source, "the dtype '" + descr + "' is not a NumPy type string Stoker knows"
                    + " (it reads b1, u1, i1, i2, u2, i4, i8, f2, f4, f8)");
        }
        return new NpyDescr(descr, dtype, order);
    }

    private static NpyFormatException unsupported(String descr, String source, String why) {
        return new NpyFormatException(source, "unsupported dtype '" + descr + "': " + why);
    }

    private static String safeBits(String size) {
        try {
            return Integer.toString(Integer.parseInt(size) * 8);
        } catch (NumberFormatException e) {
            return "(" + size + ")";
        }
    }

    /** Whether the elements must be byte-swapped to be read in native order. */
    public boolean needsSwap() {
        return dtype.byteSize() > 1 && order != ByteOrder.nativeOrder();
    }
}
