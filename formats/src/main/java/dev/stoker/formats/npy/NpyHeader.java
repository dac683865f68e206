package dev.stoker.formats.npy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The header of a {@code .npy} file: format version, dtype, byte order, shape, and where the data
 * starts. See NumPy's {@code numpy.lib.format} for the layout: the magic {@code \x93NUMPY}, two
 * version bytes, a little-endian header length (2 bytes in version 1, 4 in versions 2 and 3), then
 * a Python dict literal with the keys {@code descr}, {@code fortran_order} and {@code shape}.
 *
 * <p>{@link #parse} checks the file against the header: every size read is checked against the
 * file's size before anything is read or allocated from it, the element count must not overflow,
 * and the data must fill the file exactly.
 *
 * <pre>{@code
 * NpyHeader h = NpyHeader.parse(fileBytes, "x.npy");
 * h.descr().dtype();   // F32
 * h.shape();           // [100, 3, 32, 32]
 * h.dataOffset();      // 128
 * }</pre>
 *
 * @param major        format version: 1, 2 or 3
 * @param minor        always 0
 * @param descr        the element type and byte order
 * @param fortranOrder what the header said: the data is column-major ({@code np.asfortranarray});
 *                     readers copy such data into C order once ({@link #copyData}), where the
 *                     layout differs ({@link #columnMajor()})
 * @param shape        the array's shape ({@code []} for a 0-d array)
 * @param dataOffset   where the data starts, in bytes from the start of the file
 */
public record NpyHeader(int major, int minor, NpyDescr descr, boolean fortranOrder, Shape shape, long dataOffset) {
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** Far beyond any real header (NumPy itself refuses more than 10,000 bytes by default). */
    static final long MAX_HEADER_BYTES = 1 << 20;
    private static final Set<Object> KEYS = Set.of("descr", "fortran_order", "shape");

    public DType dtype() {
        return descr.dtype();
    }

    /** Bytes of data: elements times the element size. */
    public long dataBytes() {
        return shape.elements() * descr.dtype().byteSize();
    }

    /**
     * Whether the data is laid out otherwise than in C order: Fortran order with more than one
     * dimension above 1 (a single row or column is the same bytes in either order).
     */
    public boolean columnMajor() {
        return fortranOrder && dimensionsAboveOne(shape) > 1;
    }

    /**
     * Whether the data can be used where it lies: C order and native byte order. Otherwise
     * {@link #copyData} makes the copy Stoker's tensors need.
     */
    public boolean inPlace() {
        return !columnMajor() && !descr.needsSwap();
    }

    /**
     * Copies this header's data from {@code file} (the bytes it was parsed from) into {@code to},
     * which holds {@link #dataBytes()}, in C order and native byte order: one pass, transposing a
     * Fortran-order array and swapping big-endian elements on the way, as NumPy reads them.
     */
    public void copyData(MemorySegment file, MemorySegment to) {
        COrderCopy.copy(file, dataOffset, descr.order(), descr.dtype().byteSize(), shape, columnMajor(), to);
    }

    /**
     * Parses the header at the start of {@code file} (the whole file's bytes) and checks the data
     * size against the file size.
     *
     * @param source the file's name, for error messages
     * @throws NpyFormatException naming {@code source}, for anything that is not a readable {@code .npy} file
     */
    public static NpyHeader parse(MemorySegment file, String source) throws NpyFormatException {
        long size = file.byteSize();
        if (size < 10) {
            throw new NpyFormatException(source, "truncated: " + size + " bytes, but a .npy file starts with at least"
                    + " 10 (magic, version, header length)");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (file.get(ValueLayout.JAVA_BYTE, i) != MAGIC[i]) {
                throw new NpyFormatException(source, "not a .npy file: it starts with " + hex(file, 6)
                        + " instead of the magic 93 4e 55 4d 50 59 (\\x93NUMPY)");
            }
        }
        int major = Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, 6));
        int minor = Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, 7));
        if (major < 1 || major > 3 || minor != 0) {
            throw new NpyFormatException(source, "unsupported .npy format version " + major + "." + minor
                    + " (versions 1.0, 2.0 and 3.0 are read)");
        }
        long headerLength;
        long headerStart;
        if (major == 1) {
            headerLength = Short.toUnsignedInt(file.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8));
            headerStart = 10;
        } else {
            if (size < 12) {
                throw new NpyFormatException(source, "truncated: " + size + " bytes, but a version " + major
                        + " .npy file starts with at least 12");
            }
            headerLength = Integer.toUnsignedLong(file.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8));
            headerStart = 12;
        }
        if (headerLength > size - headerStart) {
            throw new NpyFormatException(source, "truncated: the header length at offset 8 says " + headerLength
                    + " bytes, but only " + (size - headerStart) + " follow it (file size " + size + ")");
        }
        if (headerLength > MAX_HEADER_BYTES) {
            throw new NpyFormatException(source, "the header length at offset 8 says " + headerLength
                    + " bytes; headers past " + MAX_HEADER_BYTES + " bytes are refused");
        }
        byte[] raw = new byte[(int) headerLength];
        MemorySegment.copy(file, ValueLayout.JAVA_BYTE, headerStart, raw, 0, raw.length);
        // Versions 1 and 2 are latin-1; version 3 is UTF-8 (for structured field names).
        String text = new String(raw, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        long dataOffset = headerStart + headerLength;

        Map<?, ?> dict = parseDict(text, source);
        NpyDescr descr = descr(dict.get("descr"), source);
        boolean fortran = fortranOrder(dict.get("fortran_order"), source);
        Shape shape = shape(dict.get("shape"), source);
        long dataBytes;
        try {
            dataBytes = Math.multiplyExact(shape.elements(), (long) descr.dtype().byteSize());
        } catch (ArithmeticException e) {
            throw new NpyFormatException(source, "shape " + shape + " of " + descr.descr() + " needs more than 2^63 bytes");
        }
        long available = size - dataOffset;
        if (dataBytes > available) {
            throw new NpyFormatException(source, "truncated: shape " + shape + " of " + descr.descr() + " needs "
                    + dataBytes + " bytes of data from offset " + dataOffset + ", but the file has " + available
                    + " (file size " + size + ")");
        }
        if (dataBytes < available) {
            throw new NpyFormatException(source, "the file has " + (available - dataBytes) + " bytes more than shape "
                    + shape + " of " + descr.descr() + " needs (" + dataBytes + " bytes from offset " + dataOffset
                    + "): the header does not match the file size");
        }
        return new NpyHeader(major, minor, descr, fortran, shape, dataOffset);
    }

    private static Map<?, ?> parseDict(String text, String source) throws NpyFormatException {
        Object parsed;
        try {
            parsed = PyLiteral.parse(text);
        } catch (PyLiteral.SyntaxError e) {
            throw new NpyFormatException(source, e.getMessage() + " (header: " + abbreviate(text) + ")");
        }
        if (!(parsed instanceof Map<?, ?> dict)) {
            throw new NpyFormatException(source, "the header is not a dict: " + abbreviate(text));
        }
        if (dict.size() != KEYS.size() || !dict.keySet().containsAll(KEYS)) {
            throw new NpyFormatException(source, "the header dict has the keys " + dict.keySet()
                    + " but must have exactly 'descr', 'fortran_order' and 'shape'");
        }
        return dict;
    }

    private static NpyDescr descr(Object value, String source) throws NpyFormatException {
        if (value instanceof String s) {
            return NpyDescr.parse(s, source);
        }
        if (value instanceof List<?> || value instanceof PyLiteral.Tuple) {
            throw new NpyFormatException(source, "unsupported dtype: structured arrays (a list of fields as 'descr')"
                    + " are not read");
        }
        throw new NpyFormatException(source, "'descr' must be a string, not " + describe(value));
    }

    private static boolean fortranOrder(Object value, String source) throws NpyFormatException {
        if (value instanceof Boolean b) {
            return b;
        }
        throw new NpyFormatException(source, "'fortran_order' must be True or False, not " + describe(value));
    }

    private static Shape shape(Object value, String source) throws NpyFormatException {
        if (!(value instanceof PyLiteral.Tuple tuple)) {
            throw new NpyFormatException(source, "'shape' must be a tuple of integers, not " + describe(value));
        }
        List<Object> items = tuple.items();
        if (items.size() > 64) {
            throw new NpyFormatException(source, "'shape' has " + items.size() + " dimensions; NumPy allows 64 at most");
        }
        long[] dims = new long[items.size()];
        for (int i = 0; i < dims.length; i++) {
            if (!(items.get(i) instanceof Long d) || d < 0) {
                throw new NpyFormatException(source, "dimension " + i + " of 'shape' " + render(items)
                        + " is not a non-negative integer");
            }
            dims[i] = d;
        }
        try {
            return Shape.of(dims);
        } catch (ArithmeticException e) {
            throw new NpyFormatException(source, "shape " + render(items) + " has more than 2^63 elements");
        }
    }

    private static int dimensionsAboveOne(Shape shape) {
        int n = 0;
        for (int i = 0; i < shape.rank(); i++) {
            if (shape.dim(i) > 1) n++;
        }
        return n;
    }

    private static String render(List<Object> items) {
        List<String> parts = new ArrayList<>();
        for (Object o : items) parts.add(String.valueOf(o));
        return "(" + String.join(", ", parts) + (parts.size() == 1 ? ",)" : ")");
    }

    private static String describe(Object value) {
        if (value == null) return "None";
        if (value instanceof PyLiteral.Tuple t) return "the tuple " + render(t.items());
        if (value instanceof String s) return "the string '" + abbreviate(s) + "'";
        return value.getClass().getSimpleName().toLowerCase() + " " + abbreviate(String.valueOf(value));
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() <= 120 ? t : t.substring(0, 120) + "...";
    }

    private static String hex(MemorySegment file, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(' ');
            sb.append(String.format("%02x", file.get(ValueLayout.JAVA_BYTE, i)));
        }
        return sb.toString();
    }
}
