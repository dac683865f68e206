package dev.stoker.formats.mds;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A numeric value as stored: its MDS element type, its shape and a view of its values. Parses the
 * four ndarray forms ({@code [dtype byte][ndim << 2 | shape-dtype byte][shape][values]}, with the
 * dtype byte absent for {@code ndarray:DTYPE} and only values for {@code ndarray:DTYPE:SHAPE}) and
 * numeric scalars, checking that the shape's product times the item size is exactly the bytes
 * present.
 *
 * @param number the stored element type
 * @param shape  the shape; empty for a scalar
 * @param values the little-endian values, {@code product(shape) * itemsize} bytes
 */
record NdArrayValue(MdsNumber number, long[] shape, MemorySegment values) {
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Parses {@code bytes}, the value of a column with encoding {@code encoding}.
     *
     * @param where names the sample and column for messages
     */
    static NdArrayValue parse(String where, MdsEncoding encoding, MemorySegment bytes) {
        if (encoding.kind() == MdsEncoding.Kind.SCALAR) {
            return new NdArrayValue(encoding.number(), new long[0], bytes);
        }
        long pos = 0;
        long length = bytes.byteSize();
        MdsNumber number = encoding.number();
        if (number == null) {
            if (length < 1) {
                throw new MdsFormatException(where + ": an ndarray value of 0 bytes has no dtype byte");
            }
            int code = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, pos++));
            number = MdsNumber.byCode(code);
            if (number == null) {
                throw new MdsFormatException(where + ": unknown ndarray dtype code " + code);
            }
        }
        long[] shape = encoding.shape();
        if (shape == null) {
            if (pos >= length) {
                throw new MdsFormatException(where + ": the ndarray value ends before its shape byte");
            }
            int b = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, pos++));
            int ndim = b >> 2;
            int dimBytes = 1 << (b & 3);
            if (ndim == 0) {
                throw new MdsFormatException(where + ": the ndarray value has 0 dimensions");
            }
            if (pos + (long) ndim * dimBytes > length) {
                throw new MdsFormatException(where + ": the ndarray's " + ndim + " dimensions of " + dimBytes
                        + " bytes run past the value's end (" + length + " bytes)");
            }
            shape = new long[ndim];
            for (int d = 0; d < ndim; d++) {
                long dim = switch (dimBytes) {
                    case 1 -> Byte.toUnsignedLong(bytes.get(ValueLayout.JAVA_BYTE, pos));
                    case 2 -> Short.toUnsignedLong(bytes.get(ValueLayout.JAVA_SHORT_UNALIGNED
                            .withOrder(ByteOrder.LITTLE_ENDIAN), pos));
                    case 4 -> Integer.toUnsignedLong(bytes.get(MdsShard.U32, pos));
                    default -> bytes.get(U64, pos);
                };
                pos += dimBytes;
                if (dim < 1) {
                    throw new MdsFormatException(where + ": the ndarray's dimension " + d + " is "
                            + Long.toUnsignedString(dim) + "; dimensions are at least 1");
                }
                shape[d] = dim;
            }
        }
        long remaining = length - pos;
        long expected = number.byteSize();
        for (long d : shape) {
            // expected * d > remaining, asked without overflowing (dimensions come from the file)
            if (expected > remaining / d) {
                expected = -1;
                break;
            }
            expected *= d;
        }
        if (expected != remaining) {
            throw new MdsFormatException(where + ": the ndarray's shape " + java.util.Arrays.toString(shape) + " of "
                    + number + " needs " + (expected < 0 ? "more" : Long.toString(expected)) + " bytes but "
                    + remaining + " follow its header");
        }
        return new NdArrayValue(number, shape, bytes.asSlice(pos, remaining));
    }

    /** The number of elements. */
    long elements() {
        return values.byteSize() / number.byteSize();
    }

    /**
     * The value as a tensor: a view of the map where the stored type is Stoker's, a copy on the
     * heap where it is widened (uint32, uint64 to int64).
     */
    Tensor tensor(String where) {
        Shape s = Shape.of(shape);
        if (!number.widens()) {
            return new Tensor(values, number.dtype(), s);
        }
        long[] longs = new long[Math.toIntExact(elements())];
        Tensor t = new Tensor(MemorySegment.ofArray(longs), DType.I64, s);
        copyTo(where, t.segment());
        return t;
    }

    /**
     * Writes the values into {@code dst} as {@code number.dtype()}: one copy, or an element-wise
     * widening for uint32 and uint64.
     *
     * @throws MdsFormatException for a uint64 value past int64's range
     */
    void copyTo(String where, MemorySegment dst) {
        long bad = copy(number, values, 0, values.byteSize(), dst);
        if (bad >= 0) {
            throw tooLarge(where, values.getAtIndex(U64, bad), bad);
        }
    }

    static MdsFormatException tooLarge(String where, long value, long element) {
        return new MdsFormatException(where + ": the uint64 value " + Long.toUnsignedString(value) + " (element "
                + element + ") does not fit in int64, Stoker's widest integer; read its bytes with"
                + " MdsSample.segment instead");
    }

    /**
     * Copies {@code bytes} stored values of type {@code number} at {@code offset} in {@code src} into
     * {@code dst} as {@code number.dtype()}, allocating nothing: the fill path's copy.
     *
     * @return -1, or the element whose uint64 value does not fit in int64 (the copy stops there)
     */
    static long copy(MdsNumber number, MemorySegment src, long offset, long bytes, MemorySegment dst) {
        if (!number.widens()) {
            MemorySegment.copy(src, offset, dst, 0, bytes); // stored little-endian = native order
            return -1;
        }
        long n = bytes / number.byteSize();
        if (number == MdsNumber.U32) {
            for (long i = 0; i < n; i++) {
                dst.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i,
                        Integer.toUnsignedLong(src.get(MdsShard.U32, offset + 4 * i)));
            }
            return -1;
        }
        for (long i = 0; i < n; i++) {
            long v = src.get(U64, offset + 8 * i);
            if (v < 0) {
                return i;
            }
            dst.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, v);
        }
        return -1;
    }
}
