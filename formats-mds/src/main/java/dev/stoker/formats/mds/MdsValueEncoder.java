package dev.stoker.formats.mds;

import dev.stoker.tensor.HalfFloats;
import dev.stoker.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Turns one column value into the bytes Streaming's {@code mds_encode} gives for the same value
 * and encoding, so that what {@link MdsWriter} writes reads back in Python as it was written.
 * Bytes (a {@code byte[]} or a {@link MemorySegment}) pass through for every encoding, as in
 * Streaming: that is how already-encoded JPEG, PNG or pickle data goes in unchanged.
 */
final class MdsValueEncoder {
    private MdsValueEncoder() {}

    /** The most axes an {@code ndarray} value may have: its header keeps ndim in six bits. */
    private static final int MAX_AXES = 63;

    /**
     * The encoding {@code text}, checked for what the writer can write: every encoding Streaming
     * reads, except ndarrays of uint32 or uint64, which no Stoker tensor holds.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static MdsEncoding writable(String text) {
        MdsEncoding e = MdsEncoding.parse(text);
        if (e.kind() == MdsEncoding.Kind.NDARRAY && e.number() != null && e.number().widens()) {
            throw new IllegalArgumentException("'" + text + "': Stoker has no " + e.number()
                    + " tensors to write; use int64 (or int32) arrays");
        }
        if (e.fixedSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "': each value would take more than 2 GiB");
        }
        return e;
    }

    static byte[] encode(MdsEncoding encoding, Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof MemorySegment segment) {
            return segment.toArray(ValueLayout.JAVA_BYTE);
        }
        return switch (encoding.kind()) {
            case STR, JSON, STR_INT, STR_FLOAT, STR_DECIMAL -> text(encoding, value);
            case SCALAR -> scalar(encoding, value);
            case NDARRAY -> ndarray(encoding, value);
            case LIST_JPEG, LIST_PNG, LIST_PIL -> list(encoding, value, true);
            case JPEG_ARRAY -> list(encoding, value, false);
            default -> throw new IllegalArgumentException("a " + encoding.text() + " column takes its value as bytes"
                    + " (byte[] or MemorySegment), already encoded; got " + typeName(value));
        };
    }

    private static byte[] text(MdsEncoding encoding, Object value) {
        if (value instanceof CharSequence || value instanceof Number) {
            return value.toString().getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("a " + encoding.text() + " column takes a String, got " + typeName(value));
    }

    /** A little-endian scalar; whole numbers must fit the type, as NumPy would refuse or wrap them. */
    private static byte[] scalar(MdsEncoding encoding, Object value) {
        if (!(value instanceof Number n)) {
            throw new IllegalArgumentException("a " + encoding.text() + " column takes a number, got " + typeName(value));
        }
        MdsNumber type = encoding.number();
        ByteBuffer out = ByteBuffer.allocate(type.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        switch (type) {
            case F16 -> out.putShort(HalfFloats.floatToF16(n.floatValue()));
            case F32 -> out.putFloat(n.floatValue());
            case F64 -> out.putDouble(n.doubleValue());
            default -> {
                long v = wholeNumber(encoding, n);
                switch (type.byteSize()) {
                    case 1 -> out.put((byte) v);
                    case 2 -> out.putShort((short) v);
                    case 4 -> out.putInt((int) v);
                    default -> out.putLong(v);
                }
            }
        }
        return out.array();
    }

    /** The bits of {@code n} as the integer type stores them, or an error where it does not fit. */
    private static long wholeNumber(MdsEncoding encoding, Number n) {
        if (n instanceof Double || n instanceof Float) {
            throw new IllegalArgumentException("a " + encoding.text() + " column takes a whole number, got " + n);
        }
        BigInteger v = n instanceof BigInteger b ? b : BigInteger.valueOf(n.longValue());
        int bits = encoding.number().byteSize() * 8;
        boolean unsigned = encoding.number().name().startsWith("U");
        BigInteger min = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger max = (unsigned ? BigInteger.ONE.shiftLeft(bits) : BigInteger.ONE.shiftLeft(bits - 1))
                .subtract(BigInteger.ONE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new IllegalArgumentException(n + " does not fit a " + encoding.text() + " column (" + min + " to " + max + ")");
        }
        return v.longValue();
    }

    /** Streaming's four ndarray forms: a fixed dtype and shape leave out the header parts they fix. */
    private static byte[] ndarray(MdsEncoding encoding, Object value) {
        if (!(value instanceof Tensor t)) {
            throw new IllegalArgumentException("an " + encoding.text() + " column takes a Tensor, got " + typeName(value));
        }
        MdsNumber type = MdsNumber.of(t.dtype());
        if (type == null) {
            throw new IllegalArgumentException("MDS has no " + t.dtype().numpyName() + " arrays; convert the tensor"
                    + " to uint8 or float32 first");
        }
        if (t.elements() == 0) {
            throw new IllegalArgumentException("an " + encoding.text() + " column cannot hold an array without elements"
                    + " (Streaming refuses them too)");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (encoding.number() == null) {
            out.write(type.code());
        } else if (encoding.number() != type) {
            throw new IllegalArgumentException("the column is " + encoding.text() + " but the tensor is " + type);
        }
        long[] dims = t.shape().toArray();
        if (encoding.shape() == null) {
            if (dims.length == 0 || dims.length > MAX_AXES) {
                throw new IllegalArgumentException("an " + encoding.text() + " column holds arrays of 1 to " + MAX_AXES
                        + " axes, not " + dims.length + " (a scalar goes in a scalar column)");
            }
            long max = Arrays.stream(dims).max().orElseThrow();
            int shapeCode = max < 1L << 8 ? 0 : max < 1L << 16 ? 1 : max < 1L << 32 ? 2 : 3;
            out.write(dims.length << 2 | shapeCode);
            ByteBuffer shape = ByteBuffer.allocate(dims.length << shapeCode).order(ByteOrder.LITTLE_ENDIAN);
            for (long d : dims) {
                switch (shapeCode) {
                    case 0 -> shape.put((byte) d);
                    case 1 -> shape.putShort((short) d);
                    case 2 -> shape.putInt((int) d);
                    default -> shape.putLong(d);
                }
            }
            out.writeBytes(shape.array());
        } else if (!Arrays.equals(encoding.shape(), dims)) {
            throw new IllegalArgumentException("the column is " + encoding.text() + " but the tensor's shape is " + t.shape());
        }
        out.writeBytes(t.segment().toArray(ValueLayout.JAVA_BYTE));
        return out.toByteArray();
    }

    /** {@code list[...]} starts with a reserved u32 that {@code jpeg_array} does not have. */
    private static byte[] list(MdsEncoding encoding, Object value, boolean reserved) {
        if (!(value instanceof List<?> items)) {
            throw new IllegalArgumentException("a " + encoding.text() + " column takes a List of encoded images"
                    + " (byte[] or MemorySegment each), got " + typeName(value));
        }
        ByteBuffer head = ByteBuffer.allocate((reserved ? 8 : 4) + 4 * items.size()).order(ByteOrder.LITTLE_ENDIAN);
        if (reserved) {
            head.putInt(0);
        }
        head.putInt(items.size());
        byte[][] parts = new byte[items.size()][];
        for (int i = 0; i < parts.length; i++) {
            Object item = items.get(i);
            parts[i] = item instanceof byte[] b ? b : item instanceof MemorySegment m ? m.toArray(ValueLayout.JAVA_BYTE)
                    : null;
            if (parts[i] == null) {
                throw new IllegalArgumentException("item " + i + " of a " + encoding.text() + " value is a "
                        + typeName(item) + ", not encoded bytes");
            }
            head.putInt(parts[i].length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.array());
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }
}
