package dev.stoker.formats.tar;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A member holding one integer as ASCII decimal text, WebDataset's {@code .cls} (what
 * {@code str(label).encode()} writes): surrounding ASCII whitespace is ignored, a leading
 * {@code -} or {@code +} allowed, and the value must fit the field's integer dtype. The field is a
 * scalar, so its batch tensor is {@code (n)}.
 */
record IntegerField(SampleLayout.Field field, String extension) implements TarField {
    /** Characters of the longest i64: {@code -9223372036854775808}. */
    static final int MAX_CHARS = 20;
    /**
     * A member past this is refused before it is scanned, whatever it holds: an integer label with
     * some whitespace around it is a few bytes, and a scan of a huge member would be wasted work.
     */
    static final long MAX_MEMBER_BYTES = 256;

    @Override
    public void write(TarSample sample, MemorySegment member, Tensor row) {
        row.setLong(0, parse(sample, member));
    }

    private long parse(TarSample sample, MemorySegment member) {
        long size = member.byteSize();
        if (size > MAX_MEMBER_BYTES) {
            throw bad(sample, size + " bytes, too long for integer text (at most " + MAX_CHARS
                    + " characters, with whitespace around them)");
        }
        int from = 0;
        int to = (int) size;
        while (from < to && isSpace(member.get(ValueLayout.JAVA_BYTE, from))) {
            from++;
        }
        while (to > from && isSpace(member.get(ValueLayout.JAVA_BYTE, to - 1))) {
            to--;
        }
        if (from == to) {
            throw bad(sample, (size == 0 ? "empty" : "only whitespace") + "; expected decimal integer text such as \"7\"");
        }
        if (to - from > MAX_CHARS) {
            throw bad(sample, "\"" + text(member, from, to) + "\" is " + (to - from) + " characters, more than an"
                    + " integer of " + field.dtype() + " has");
        }
        int i = from;
        byte first = member.get(ValueLayout.JAVA_BYTE, i);
        boolean negative = first == '-';
        if (first == '-' || first == '+') {
            i++;
        }
        if (i == to) {
            throw notDecimal(sample, member, from, to);
        }
        // accumulated as a negative number, whose range reaches Long.MIN_VALUE
        long value = 0;
        for (; i < to; i++) {
            int d = member.get(ValueLayout.JAVA_BYTE, i) - '0';
            if (d < 0 || d > 9) {
                throw notDecimal(sample, member, from, to);
            }
            if (value < (Long.MIN_VALUE + d) / 10) {
                throw outOfRange(sample, member, from, to);
            }
            value = value * 10 - d;
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                throw outOfRange(sample, member, from, to);
            }
            value = -value;
        }
        if (value < min(field.dtype()) || value > max(field.dtype())) {
            throw outOfRange(sample, member, from, to);
        }
        return value;
    }

    private TarSampleException notDecimal(TarSample sample, MemorySegment member, int from, int to) {
        return bad(sample, "\"" + text(member, from, to) + "\" is not a decimal integer (expected text such as"
                + " \"7\" or \"-3\")");
    }

    private TarSampleException outOfRange(TarSample sample, MemorySegment member, int from, int to) {
        DType t = field.dtype();
        return bad(sample, text(member, from, to) + " is out of the range of " + t + " (" + min(t) + " to " + max(t)
                + ")");
    }

    /** Whether {@code dtype} can hold what this field reads: the integer types. */
    static boolean holds(DType dtype) {
        return switch (dtype) {
            case I8, U8, I16, U16, I32, I64 -> true;
            default -> false;
        };
    }

    static long min(DType t) {
        return switch (t) {
            case I8 -> Byte.MIN_VALUE;
            case I16 -> Short.MIN_VALUE;
            case I32 -> Integer.MIN_VALUE;
            case I64 -> Long.MIN_VALUE;
            default -> 0; // U8, U16
        };
    }

    static long max(DType t) {
        return switch (t) {
            case I8 -> Byte.MAX_VALUE;
            case U8 -> 0xFF;
            case I16 -> Short.MAX_VALUE;
            case U16 -> 0xFFFF;
            case I32 -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE; // I64
        };
    }

    /** Python's {@code bytes.strip()} set: space, tab, newline, return, vertical tab, form feed. */
    private static boolean isSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    /** The text as a person can read it in a message: printable ASCII as is, other bytes as {@code \xNN}. */
    private static String text(MemorySegment member, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to && sb.length() < 60; i++) {
            int b = Byte.toUnsignedInt(member.get(ValueLayout.JAVA_BYTE, i));
            if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        return to - from > 60 ? sb + "..." : sb.toString();
    }
}
