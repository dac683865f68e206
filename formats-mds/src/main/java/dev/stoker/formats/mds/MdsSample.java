package dev.stoker.formats.mds;

import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.mmap.MappedFileChangedError;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One sample of an {@link MdsDataset}: typed access to its columns by name, over views of the
 * memory-mapped shard. Nothing is decoded until asked for, and images, JSON and pickles are never
 * decoded: {@link #segment} and {@link #bytes} give any column's bytes as stored.
 *
 * <pre>{@code
 * MdsSample s = ds.get(42);
 * long label = s.longValue("label");            // int, int8..int64, uint8..uint64, str_int
 * String caption = s.string("caption");         // str, json, str_int, str_float, str_decimal
 * Tensor tokens = s.tensor("tokens");           // ndarray (any form) or a numeric scalar
 * byte[] jpeg = s.bytes("image");               // jpeg/png/pil/pkl/json: the stored bytes
 * List<MemorySegment> frames = s.items("frames"); // list[jpeg], list[png], list[pil], jpeg_array
 * }</pre>
 *
 * <p>Which accessor reads which encoding is fixed; asking for another (a {@code str} column's
 * {@code tensor}) throws {@link IllegalArgumentException}. Damaged values throw
 * {@link MdsFormatException} naming the shard, the sample and the column.
 *
 * <p>NOTE: views ({@link #segment}, {@link #tensor} of non-widened types, {@link #items},
 * {@link #pil}) are valid until the dataset is closed; reading them afterwards throws
 * {@link IllegalStateException}. Copy what must outlive it ({@link #bytes}, {@code Tensor.copyFrom}).
 *
 * <p>A shard cut short under its map (truncated by another process) makes each accessor that
 * reads it throw {@link dev.stoker.formats.mmap.MappedFileChangedError} naming the shard, the
 * sample and the column. A view's bytes are read later, by its reader: inside a loader's batch the
 * loader names the fault; elsewhere the reader catches it (see {@link MapFaults}).
 */
public final class MdsSample {
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MdsShard shard;
    private final long index;
    private final long local;
    private final MemorySegment bytes;
    private final Map<String, Integer> positions;
    private final long[] starts;
    private final long[] sizes;

    MdsSample(MdsShard shard, long index, long local, Map<String, Integer> positions) {
        this.shard = shard;
        this.index = index;
        this.local = local;
        this.bytes = shard.sample(local);
        this.positions = positions;
        int n = shard.info().columns().size();
        this.starts = new long[n];
        this.sizes = new long[n];
        SampleLocator.locate(shard, index, local, bytes, starts, sizes);
    }

    /** The sample's index in the dataset. */
    public long index() {
        return index;
    }

    /** The column names, in the order the shards store them (sorted, as MDSWriter writes them). */
    public List<String> columns() {
        return shard.info().columns().stream().map(MdsColumn::name).toList();
    }

    /** The encoding of column {@code column} as index.json names it, e.g. {@code "ndarray:float32:2,3"}. */
    public String encoding(String column) {
        return shard.info().columns().get(position(column)).encoding().text();
    }

    /** Column {@code column}'s bytes as stored: a view of the shard, valid until the dataset is closed. */
    public MemorySegment segment(String column) {
        int c = position(column);
        return bytes.asSlice(starts[c], sizes[c]);
    }

    /** Column {@code column}'s bytes as stored, copied onto the heap. */
    public byte[] bytes(String column) {
        MemorySegment v = segment(column);
        try {
            byte[] copy = v.toArray(ValueLayout.JAVA_BYTE);
            MapFaults.deliverPending();
            return copy;
        } catch (InternalError fault) { // the shard was cut short under its map: name it
            throw changed(fault, column);
        }
    }

    /**
     * A text column ({@code str}, {@code json}, {@code str_int}, {@code str_float},
     * {@code str_decimal}) as a string.
     *
     * @throws MdsFormatException when the bytes are not valid UTF-8
     */
    public String string(String column) {
        MdsEncoding e = encodingOf(column);
        if (!e.isText()) {
            throw wrongAccessor(column, e, "string", "str, json, str_int, str_float, str_decimal");
        }
        try {
            String text = utf8(column, segment(column));
            MapFaults.deliverPending();
            return text;
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
    }

    /**
     * An integer column as a {@code long}: {@code int}, {@code int8..int64}, {@code uint8..uint64}
     * (a uint64 past 2^63 - 1 is refused), or {@code str_int} within long's range.
     */
    public long longValue(String column) {
        try {
            long value = readLong(column);
            MapFaults.deliverPending();
            return value;
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
    }

    private long readLong(String column) {
        MdsEncoding e = encodingOf(column);
        MemorySegment v = segment(column);
        if (e.kind() == MdsEncoding.Kind.STR_INT) {
            try {
                return new BigInteger(utf8(column, v).trim()).longValueExact();
            } catch (NumberFormatException | ArithmeticException ex) {
                throw bad(column, "'" + utf8(column, v) + "' is not an integer within"
                        + " long's range", ex);
            }
        }
        if (e.kind() != MdsEncoding.Kind.SCALAR || e.number().isFloatingPoint()) {
            throw wrongAccessor(column, e, "longValue", "int, int8..int64, uint8..uint64, str_int");
        }
        return switch (e.number()) {
            case U8 -> Byte.toUnsignedLong(v.get(ValueLayout.JAVA_BYTE, 0));
            case I8 -> v.get(ValueLayout.JAVA_BYTE, 0);
            case U16 -> Short.toUnsignedLong(v.get(I16, 0));
            case I16 -> v.get(I16, 0);
            case U32 -> Integer.toUnsignedLong(v.get(MdsShard.U32, 0));
            case I32 -> v.get(MdsShard.U32, 0);
            case I64 -> v.get(I64, 0);
            case U64 -> {
                long x = v.get(I64, 0);
                if (x < 0) {
                    throw bad(column, "the uint64 value " + Long.toUnsignedString(x)
                            + " does not fit in a long; read its bytes with segment() instead");
                }
                yield x;
            }
            default -> throw new IllegalStateException(e.text());
        };
    }

    /**
     * A numeric column as a {@code double}: {@code float16/32/64}, any integer encoding, or
     * {@code str_float}/{@code str_int}/{@code str_decimal} text (Python's {@code inf} and {@code nan}
     * included).
     */
    public double doubleValue(String column) {
        try {
            double value = readDouble(column);
            MapFaults.deliverPending();
            return value;
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
    }

    private double readDouble(String column) {
        MdsEncoding e = encodingOf(column);
        MemorySegment v = segment(column);
        switch (e.kind()) {
            case STR_FLOAT, STR_INT, STR_DECIMAL -> {
                String text = utf8(column, v).trim();
                String t = text.toLowerCase(java.util.Locale.ROOT);
                switch (t) {
                    case "inf", "+inf", "infinity", "+infinity" -> {
                        return Double.POSITIVE_INFINITY;
                    }
                    case "-inf", "-infinity" -> {
                        return Double.NEGATIVE_INFINITY;
                    }
                    case "nan", "-nan", "snan" -> {
                        return Double.NaN;
                    }
                    default -> {
                    }
                }
                try {
                    return new BigDecimal(text).doubleValue();
                } catch (NumberFormatException ex) {
                    throw bad(column, "'" + text + "' is not a number", ex);
                }
            }
            case SCALAR -> {
                return switch (e.number()) {
                    case F16 -> Float.float16ToFloat(v.get(I16, 0));
                    case F32 -> v.get(F32, 0);
                    case F64 -> v.get(F64, 0);
                    case U64 -> {
                        long x = v.get(I64, 0);
                        yield x >= 0 ? x : Double.parseDouble(Long.toUnsignedString(x));
                    }
                    default -> readLong(column);
                };
            }
            default -> throw wrongAccessor(column, e, "doubleValue",
                    "float16..float64, int, int8..int64, uint8..uint64, str_float, str_int, str_decimal");
        }
    }

    /** A {@code str_decimal} (or {@code str_int}, {@code str_float}) column exactly, as Python's Decimal holds it. */
    public BigDecimal decimal(String column) {
        MdsEncoding e = encodingOf(column);
        if (e.kind() != MdsEncoding.Kind.STR_DECIMAL && e.kind() != MdsEncoding.Kind.STR_INT
                && e.kind() != MdsEncoding.Kind.STR_FLOAT) {
            throw wrongAccessor(column, e, "decimal", "str_decimal, str_int, str_float");
        }
        String text;
        try {
            text = utf8(column, segment(column)).trim();
            MapFaults.deliverPending();
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException ex) {
            throw bad(column, "'" + text + "' is not a finite decimal number", ex);
        }
    }

    /**
     * An {@code ndarray} column (any of its four forms) or a numeric scalar column (a tensor of
     * shape {@code []}) as a tensor. Stored types Stoker has are a view of the shard, copying
     * nothing; {@code uint32} and {@code uint64} are widened into an {@code int64} copy on the heap
     * (see {@link MdsDataset} for why), a uint64 value past 2^63 - 1 being refused.
     */
    public Tensor tensor(String column) {
        MdsEncoding e = encodingOf(column);
        if (e.kind() != MdsEncoding.Kind.NDARRAY && e.kind() != MdsEncoding.Kind.SCALAR) {
            throw wrongAccessor(column, e, "tensor", "ndarray, int, int8..int64, uint8..uint64, float16..float64");
        }
        try { // reads the ndarray's header, and copies a widened type: a view's elements are read later
            Tensor t = NdArrayValue.parse(where(column), e, segment(column)).tensor(where(column));
            MapFaults.deliverPending();
            return t;
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
    }

    /**
     * The items of a list column ({@code list[jpeg]}, {@code list[png]}, {@code list[pil]},
     * {@code jpeg_array}), each as its stored bytes: a view of the shard.
     *
     * @throws MdsFormatException when the item count or sizes do not match the bytes present
     */
    public List<MemorySegment> items(String column) {
        MdsEncoding e = encodingOf(column);
        if (!e.isList()) {
            throw wrongAccessor(column, e, "items", "list[jpeg], list[png], list[pil], jpeg_array");
        }
        try { // reads the item count and sizes; the items are views, read later
            List<MemorySegment> items = items(column, e, segment(column));
            MapFaults.deliverPending();
            return items;
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
    }

    private List<MemorySegment> items(String column, MdsEncoding e, MemorySegment v) {
        long head = e.kind() == MdsEncoding.Kind.JPEG_ARRAY ? 0 : 4; // lists start with a u32 placeholder
        long length = v.byteSize();
        if (head + 4 > length) {
            throw bad(column, length + " bytes cannot hold the item count");
        }
        long n = Integer.toUnsignedLong(v.get(MdsShard.U32, head));
        long pos = head + 4 + 4 * n;
        if (pos > length) {
            throw bad(column, n + " items need " + pos + " bytes of sizes but"
                    + " the value holds " + length);
        }
        List<MemorySegment> items = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            long size = Integer.toUnsignedLong(v.get(MdsShard.U32, head + 4 + 4 * i));
            if (size > length - pos) {
                throw bad(column, "item " + i + " of " + size + " bytes runs past the"
                        + " value's end");
            }
            items.add(v.asSlice(pos, size));
            pos += size;
        }
        if (pos != length) {
            throw bad(column, "the " + n + " items end at byte " + pos + " but the"
                    + " value holds " + length);
        }
        return items;
    }

    /**
     * A {@code pil} column (or one item of {@code list[pil]}: pass {@link #items}'s segment to
     * {@link #pil(MemorySegment)}) as its size, mode and raw pixels.
     */
    public MdsPilImage pil(String column) {
        MdsEncoding e = encodingOf(column);
        if (e.kind() != MdsEncoding.Kind.PIL) {
            throw wrongAccessor(column, e, "pil", "pil");
        }
        try { // reads the header; the pixels are a view, read later
            MdsPilImage image = pil(where(column), segment(column));
            MapFaults.deliverPending();
            return image;
        } catch (InternalError fault) {
            throw changed(fault, column);
        }
    }

    /** One item of a {@code list[pil]} column, as {@link #items} gives it, as an image. */
    public MdsPilImage pil(MemorySegment item) {
        try {
            MdsPilImage image = pil(SampleLocator.where(shard, index, local) + ", a list[pil] item", item);
            MapFaults.deliverPending();
            return image;
        } catch (InternalError fault) {
            throw shard.file().changed(fault, "a list[pil] item of sample " + index);
        }
    }

    private static MdsPilImage pil(String where, MemorySegment v) {
        long length = v.byteSize();
        if (length < 12) {
            throw new MdsFormatException(where + ": " + length + " bytes cannot hold a PIL image's header");
        }
        long width = Integer.toUnsignedLong(v.get(MdsShard.U32, 0));
        long height = Integer.toUnsignedLong(v.get(MdsShard.U32, 4));
        long modeLength = Integer.toUnsignedLong(v.get(MdsShard.U32, 8));
        if (modeLength > length - 12) {
            throw new MdsFormatException(where + ": the PIL mode of " + modeLength + " bytes runs past the value");
        }
        String mode;
        try {
            mode = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(v.asSlice(12, modeLength).asByteBuffer()).toString();
        } catch (CharacterCodingException ex) {
            throw new MdsFormatException(where + ": the PIL mode is not UTF-8", ex);
        }
        MemorySegment pixels = v.asSlice(12 + modeLength);
        long row = MdsPilImage.rowBytes(mode, width);
        if (row >= 0 && (height != 0 && row > pixels.byteSize() / height || row * height != pixels.byteSize())) {
            throw new MdsFormatException(where + ": a " + mode + " image of " + width + " x " + height + " needs "
                    + "a different number of pixel bytes than the " + pixels.byteSize() + " present");
        }
        return new MdsPilImage(width, height, mode, pixels);
    }

    /**
     * What to throw for {@code fault}, met reading column {@code column} from the shard's map: the
     * shard was cut short under it (any other InternalError is rethrown as it is).
     */
    private MappedFileChangedError changed(InternalError fault, String column) {
        return shard.file().changed(fault, "column '" + column + "' of sample " + index);
    }

    private MdsEncoding encodingOf(String column) {
        return shard.info().columns().get(position(column)).encoding();
    }

    private int position(String column) {
        Integer p = positions.get(column);
        if (p == null) {
            throw new IllegalArgumentException("no column '" + column + "'; the columns are " + columns());
        }
        return p;
    }

    private String where(String column) {
        return SampleLocator.where(shard, index, local) + ", column '" + column + "'";
    }

    /** Column {@code column} of this sample is damaged: {@code what} was wrong. */
    private MdsFormatException bad(String column, String what) {
        return bad(column, what, null);
    }

    private MdsFormatException bad(String column, String what, Throwable cause) {
        return new MdsFormatException(shard.file().path(), index, where(column), what, cause);
    }

    private IllegalArgumentException wrongAccessor(String column, MdsEncoding e, String accessor, String reads) {
        return new IllegalArgumentException("column '" + column + "' is " + e.text() + "; " + accessor + "() reads "
                + reads + " (segment() and bytes() read any column as stored)");
    }

    private String utf8(String column, MemorySegment v) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(v.asByteBuffer()).toString();
        } catch (CharacterCodingException ex) {
            throw bad(column, "the text is not valid UTF-8", ex);
        }
    }

    @Override
    public String toString() {
        return "MdsSample(" + index + ", " + shard.info().label() + ")";
    }
}
