package dev.stoker.formats.mds;

import java.util.Arrays;

/**
 * One column's encoding as {@code index.json} names it ({@code "int"}, {@code "str"},
 * {@code "ndarray:float32:2,3"}, {@code "list[jpeg]"}, ...), parsed once at open.
 *
 * @param text   the name as written
 * @param kind   what the bytes hold
 * @param number the element type of a numeric scalar or of an ndarray with a fixed dtype; else null
 * @param shape  the fixed shape of an {@code ndarray:DTYPE:D1,D2} column; else null
 */
record MdsEncoding(String text, Kind kind, MdsNumber number, long[] shape) {

    /** What a column's bytes hold. */
    enum Kind {
        BYTES, STR, SCALAR, STR_INT, STR_FLOAT, STR_DECIMAL, JSON, PKL, JPEG, PNG, PIL,
        LIST_JPEG, LIST_PNG, LIST_PIL, JPEG_ARRAY, NDARRAY
    }

    /** Whether {@link MdsSample#items} reads this kind (a list of encoded items). */
    boolean isList() {
        return kind == Kind.LIST_JPEG || kind == Kind.LIST_PNG || kind == Kind.LIST_PIL || kind == Kind.JPEG_ARRAY;
    }

    /** Whether the text accessors read this kind (UTF-8 text). */
    boolean isText() {
        return kind == Kind.STR || kind == Kind.JSON || kind == Kind.STR_INT || kind == Kind.STR_FLOAT
                || kind == Kind.STR_DECIMAL;
    }

    /** Whether every value has the same dtype and shape: a numeric scalar or a fully fixed ndarray. */
    boolean isFixedTensor() {
        return kind == Kind.SCALAR || (kind == Kind.NDARRAY && number != null && shape != null);
    }

    /**
     * The bytes every value of this encoding takes, as MDSWriter records in {@code column_sizes},
     * or -1 where values vary in size.
     */
    long fixedSize() {
        if (kind == Kind.SCALAR) {
            return number.byteSize();
        }
        if (kind == Kind.NDARRAY && shape != null) {
            long n = number.byteSize();
            for (long d : shape) {
                n = Math.multiplyExact(n, d);
            }
            return n;
        }
        return -1;
    }

    /**
     * Parses an encoding name.
     *
     * @throws IllegalArgumentException naming what is wrong, for the caller to place
     */
    static MdsEncoding parse(String text) {
        Kind simple = switch (text) {
            case "bytes" -> Kind.BYTES;
            case "str" -> Kind.STR;
            case "str_int" -> Kind.STR_INT;
            case "str_float" -> Kind.STR_FLOAT;
            case "str_decimal" -> Kind.STR_DECIMAL;
            case "json" -> Kind.JSON;
            case "pkl" -> Kind.PKL;
            case "jpeg" -> Kind.JPEG;
            case "png" -> Kind.PNG;
            case "pil" -> Kind.PIL;
            case "list[jpeg]" -> Kind.LIST_JPEG;
            case "list[png]" -> Kind.LIST_PNG;
            case "list[pil]" -> Kind.LIST_PIL;
            case "jpeg_array", "jpegarray" -> Kind.JPEG_ARRAY;
            case "ndarray" -> Kind.NDARRAY;
            default -> null;
        };
        if (simple != null) {
            return new MdsEncoding(text, simple, null, null);
        }
        if (text.equals("int")) {
            return new MdsEncoding(text, Kind.SCALAR, MdsNumber.I64, null);
        }
        MdsNumber scalar = MdsNumber.byName(text);
        if (scalar != null) {
            return new MdsEncoding(text, Kind.SCALAR, scalar, null);
        }
        if (text.startsWith("ndarray:")) {
            return ndarray(text);
        }
        throw new IllegalArgumentException("unknown encoding '" + text + "' (Stoker reads bytes, str, int, "
                + "int8..int64, uint8..uint64, float16..float64, str_int, str_float, str_decimal, json, pkl, jpeg, "
                + "png, pil, list[jpeg], list[png], list[pil], jpeg_array and ndarray[:DTYPE[:SHAPE]])");
    }

    private static MdsEncoding ndarray(String text) {
        String[] args = text.substring("ndarray:".length()).split(":", -1);
        if (args.length > 2) {
            throw new IllegalArgumentException("encoding '" + text + "': ndarray takes at most a dtype and a shape");
        }
        MdsNumber dtype = MdsNumber.byName(args[0]);
        if (dtype == null) {
            throw new IllegalArgumentException("encoding '" + text + "': unknown ndarray dtype '" + args[0] + "'");
        }
        if (args.length == 1) {
            return new MdsEncoding(text, Kind.NDARRAY, dtype, null);
        }
        String[] dims = args[1].split(",", -1);
        if (dims.length > 63) {
            throw new IllegalArgumentException("encoding '" + text + "': more than 63 dimensions");
        }
        long[] shape = new long[dims.length];
        long bytes = dtype.byteSize();
        for (int i = 0; i < dims.length; i++) {
            try {
                shape[i] = Long.parseLong(dims[i].trim());
                bytes = Math.multiplyExact(bytes, shape[i]);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException("encoding '" + text + "': the shape is not a list of sizes");
            }
            if (shape[i] < 1) {
                throw new IllegalArgumentException("encoding '" + text + "': every dimension must be at least 1");
            }
        }
        return new MdsEncoding(text, Kind.NDARRAY, dtype, shape);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MdsEncoding e && e.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text + (shape == null ? "" : " " + Arrays.toString(shape));
    }
}
