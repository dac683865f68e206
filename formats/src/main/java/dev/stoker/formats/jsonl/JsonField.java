package dev.stoker.formats.jsonl;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads one string field out of one JSON object held as UTF-8 bytes, checking the whole line
 * against JSON's grammar (RFC 8259) on the way.
 *
 * <p>Why by hand: core and formats depend on the JDK alone (DESIGN.md), the JDK has no JSON
 * parser, and a training loader wants one field of a line, not a tree: this reads the line once,
 * builds a {@code String} for the value asked for only, and allocates nothing for the rest.
 *
 * <p>What it accepts is what Python's {@code json.loads} accepts, so that every line Python's
 * {@code json.dumps} writes reads here: the JSON grammar, plus {@code NaN}, {@code Infinity} and
 * {@code -Infinity} (which {@code json.dumps} writes for such floats), and {@code \ud800}-style
 * escapes of unpaired surrogates (kept as such in the {@code String}). Like Python, a key given
 * twice takes its last value. Strings must be valid UTF-8 with no raw control characters; nesting
 * deeper than {@value #MAX_DEPTH} is refused rather than followed (no stack overflow).
 *
 * <p>Thread-safe: no state between calls but each thread's scratch array for integer lists.
 */
final class JsonField {
    static final int MAX_DEPTH = 512;

    private final byte[] b;
    private final int end;
    private int pos;
    private final String key;
    private String found;
    private boolean has;
    /** Whether the member asked for is read as a list of integers ({@link #intList}) rather than a string. */
    private final boolean wantInts;
    private int[] ints;
    private int intCount;
    /**
     * Each thread's array for the integers of a list, kept from line to line at the size the
     * longest list needed: a list read into a fresh array grew it by doubling on every line, half
     * of W9's allocations. The list handed out is a copy of its length.
     */
    private static final int MAX_KEPT = 1 << 20; // 4 MiB a thread at most; a longer list is a one-off
    private static final ThreadLocal<int[]> SCRATCH = ThreadLocal.withInitial(() -> new int[256]);

    private JsonField(byte[] bytes, int length, String key) {
        this(bytes, length, key, false);
    }

    private JsonField(byte[] bytes, int length, String key, boolean wantInts) {
        this.b = bytes;
        this.end = length;
        this.key = key;
        this.wantInts = wantInts;
    }

    /** The failure of a parse: the byte column (from 1) and what was wrong. */
    static final class Bad extends Exception {
        Bad(int pos, String what) {
            super("column " + (pos + 1) + ": " + what, null, false, false);
        }
    }

    /** Thrown for a field that is there but not a string. */
    static final class NotAString extends Exception {
        NotAString(String what) {
            super(what, null, false, false);
        }
    }

    /**
     * The string value of top-level member {@code key} of the object in {@code bytes[0, length)},
     * or null when the object has no such member.
     *
     * @throws Bad when the bytes are not one JSON object (and whitespace)
     * @throws NotAString when the member's value is not a string
     */
    static String string(byte[] bytes, int length, String key) throws Bad, NotAString {
        JsonField p = new JsonField(bytes, length, key);
        p.document();
        if (p.has && p.found == null) {
            throw new NotAString("field \"" + key + "\" is not a string");
        }
        return p.found;
    }

    /**
     * The value of top-level member {@code key}, a JSON array of integers that fit int32 (token
     * ids), or null when the object has no such member.
     *
     * @throws Bad when the bytes are not one JSON object (and whitespace)
     * @throws NotAString when the member's value is not an array of int32 integers (the message says so)
     */
    static int[] intList(byte[] bytes, int length, String key) throws Bad, NotAString {
        JsonField p = new JsonField(bytes, length, key, true);
        p.document();
        if (p.has && p.ints == null) {
            throw new NotAString("field \"" + key + "\" is not a list of int32 integers");
        }
        if (p.ints == null) {
            return null;
        }
        if (p.ints.length > SCRATCH.get().length && p.ints.length <= MAX_KEPT) {
            SCRATCH.set(p.ints); // grown for this line: keep the larger array for the next ones
        }
        return java.util.Arrays.copyOf(p.ints, p.intCount);
    }

    /** Checks that {@code bytes[0, length)} is one JSON value of any kind. */
    static void check(byte[] bytes, int length) throws Bad {
        JsonField p = new JsonField(bytes, length, null);
        p.skipWs();
        p.value(0);
        p.skipWs();
        if (p.pos != p.end) {
            throw new Bad(p.pos, "unexpected " + p.show() + " after the value");
        }
    }

    private void document() throws Bad {
        skipWs();
        if (pos >= end || b[pos] != '{') {
            throw new Bad(pos, "expected a JSON object, found " + show());
        }
        object(0, true);
        skipWs();
        if (pos != end) {
            throw new Bad(pos, "unexpected " + show() + " after the object");
        }
    }

    private void value(int depth) throws Bad {
        if (pos >= end) {
            throw new Bad(pos, "expected a value, found the end of the line");
        }
        switch (b[pos]) {
            case '{' -> object(depth, false);
            case '[' -> array(depth);
            case '"' -> string(false);
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            case 'N' -> literal("NaN");
            case 'I' -> literal("Infinity");
            default -> number();
        }
    }

    private void object(int depth, boolean top) throws Bad {
        nest(depth);
        pos++; // '{'
        skipWs();
        if (pos < end && b[pos] == '}') {
            pos++;
            return;
        }
        while (true) {
            skipWs();
            if (pos >= end || b[pos] != '"') {
                throw new Bad(pos, "expected a key in double quotes, found " + show());
            }
            boolean wanted = top && key != null;
            String name = string(wanted);
            skipWs();
            expect(':');
            skipWs();
            if (wanted && key.equals(name)) {
                has = true;
                if (wantInts) {
                    ints = null;
                    int start = pos;
                    if (pos >= end || b[pos] != '[' || !intArray(depth + 1)) {
                        ints = null;   // not a list of integers: checked as any value, reported by the caller
                        pos = start;
                        value(depth + 1);
                    }
                } else if (pos < end && b[pos] == '"') {
                    found = string(true);
                } else {
                    found = null; // not a string: reported by the caller, after the whole line is checked
                    value(depth + 1);
                }
            } else {
                value(depth + 1);
            }
            skipWs();
            if (pos < end && b[pos] == ',') {
                pos++;
                continue;
            }
            expect('}');
            return;
        }
    }

    private void array(int depth) throws Bad {
        nest(depth);
        pos++; // '['
        skipWs();
        if (pos < end && b[pos] == ']') {
            pos++;
            return;
        }
        while (true) {
            skipWs();
            value(depth + 1);
            skipWs();
            if (pos < end && b[pos] == ',') {
                pos++;
                continue;
            }
            expect(']');
            return;
        }
    }

    /**
     * An array of int32 integers from its '[', into {@link #ints}; false, with the position left
     * anywhere inside, at the first element that is not one (the caller checks the array again as
     * any value, for the error a bad line deserves).
     *
     * <p>The hot loop of a pre-tokenized JSONL reader (W9 spends most of its time here): the
     * cursor lives in locals, digits are read without a bound on their count (more than ten is
     * refused after the run, and the run is linear), and the separator Python writes (", ") is
     * taken in two compares before the general whitespace loop.
     */
    private boolean intArray(int depth) throws Bad {
        nest(depth);
        final byte[] b = this.b;
        final int end = this.end;
        int p = skipWs(b, pos + 1, end); // past '['
        int[] out = SCRATCH.get();
        int n = 0;
        ints = out;
        intCount = 0;
        if (p < end && b[p] == ']') {
            pos = p + 1;
            return true;
        }
        while (true) {
            if (end - p >= 8) {
                // the common case, as Python writes token ids: up to 5 digits and ", ", from one 8-byte word
                long w = (long) LE_LONG.get(b, p);
                int run = digitRun(w);
                if (run > 0 && run <= 5 && (run == 1 || (w & 0xFF) != '0')
                        && ((w >>> (run << 3)) & 0xFFFF) == (',' | ' ' << 8)) {
                    if (n == out.length) {
                        out = java.util.Arrays.copyOf(out, 2 * out.length);
                        ints = out;
                    }
                    out[n++] = (int) digitValue(w, run);
                    p += run + 2;
                    if (p < end && b[p] <= ' ') {
                        p = skipWs(b, p, end);
                    }
                    continue;
                }
            }
            boolean negative = p < end && b[p] == '-';
            if (negative) {
                p++;
            }
            int from = p;
            long v = 0;
            int swar = end - p >= 8 ? digitRun((long) LE_LONG.get(b, p)) : 8;
            if (swar < 8) { // the common case: a token id of up to 7 digits, read in one 8-byte word
                v = swar == 0 ? 0 : digitValue((long) LE_LONG.get(b, p), swar);
                p += swar;
            } else {
                int d;
                while (p < end && (d = b[p] - '0') >= 0 && d <= 9) {
                    v = v * 10 + d;
                    p++;
                }
            }
            int digits = p - from;
            if (digits == 0 || digits > 10 || (digits > 1 && b[from] == '0')) {
                pos = p;
                return false;
            }
            v = negative ? -v : v;
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                pos = p;
                return false;
            }
            if (n == out.length) {
                out = java.util.Arrays.copyOf(out, 2 * out.length);
                ints = out;
            }
            out[n++] = (int) v;
            // after a number: ',' or ']' (a '.', 'e' or 'E' here is a float: not ours)
            if (p < end && b[p] != ',' && b[p] != ']') {
                p = skipWs(b, p, end);
            }
            if (p < end && b[p] == ',') {
                p++;
                if (p < end && b[p] == ' ') {
                    p++;
                }
                if (p < end && b[p] <= ' ') {
                    p = skipWs(b, p, end);
                }
                continue;
            }
            intCount = n;
            if (p < end && b[p] == ']') {
                pos = p + 1;
                return true;
            }
            pos = p;
            return false;
        }
    }

    private static final java.lang.invoke.VarHandle LE_LONG = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * How many of the 8 bytes of {@code w} (the first in its lowest byte) are ASCII digits before
     * the first that is not: 8 when all are. A byte is a digit when its high nibble is 3 and its
     * low nibble at most 9 (adding 6 keeps the high nibble 3); a carry out of a byte only reaches
     * bytes after it, which do not count once it is not a digit.
     */
    static int digitRun(long w) {
        long high = (w & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L;
        long low = ((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L;
        long bad = high | low; // a nonzero byte where the byte is not a digit
        long marks = (((bad & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | bad) & 0x8080808080808080L;
        return Long.numberOfTrailingZeros(marks) >>> 3; // 64 >>> 3 = 8 when no byte is marked
    }

    /** The value of the first {@code count} (1 to 7) bytes of {@code w}, all ASCII digits, most significant first. */
    static long digitValue(long w, int count) {
        // the digits moved to the word's top, zeros before them: an 8-digit number with leading zeros
        long v = ((w & 0x0F0F0F0F0F0F0F0FL) << (8 * (8 - count)));
        v = (v * 10 + (v >>> 8)) & 0x00FF00FF00FF00FFL;
        v = (v * 100 + (v >>> 16)) & 0x0000FFFF0000FFFFL;
        return (v * 10000 + (v >>> 32)) & 0xFFFFFFFFL;
    }

    /** The first position from {@code p} that is not JSON whitespace. */
    private static int skipWs(byte[] b, int p, int end) {
        while (p < end && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r' || b[p] == '\n')) {
            p++;
        }
        return p;
    }

    private void nest(int depth) throws Bad {
        if (depth >= MAX_DEPTH) {
            throw new Bad(pos, "nested deeper than " + MAX_DEPTH + " objects and arrays");
        }
    }

    /** A string from the opening quote; returns its value when {@code build}, else checks it and returns null. */
    private String string(boolean build) throws Bad {
        pos++; // '"'
        StringBuilder out = null; // made at the first escape of a string being built: most strings have none
        int run = pos; // start of the current run of raw bytes
        boolean ascii = true;
        while (true) {
            if (pos >= end) {
                throw new Bad(pos, "a string is not closed");
            }
            int c = b[pos] & 0xFF;
            if (c == '"' || c == '\\') {
                String piece = piece(run, pos, ascii, build);
                ascii = true;
                if (c == '"') {
                    pos++;
                    if (!build) return null;
                    return out == null ? piece : out.append(piece).toString();
                }
                if (build) {
                    if (out == null) out = new StringBuilder(piece.length() + 16);
                    out.append(piece);
                }
                escape(out);
                run = pos;
            } else if (c < 0x20) {
                throw new Bad(pos, "a raw control character (0x" + Integer.toHexString(c) + ") inside a string; JSON escapes it");
            } else {
                if (c >= 0x80) {
                    ascii = false;
                }
                pos++;
            }
        }
    }

    /**
     * Raw bytes [from, to) as text (null when not {@code build}), checked as UTF-8 either way. The
     * JDK's {@code String} constructor decodes UTF-8 in one intrinsic pass but replaces what is
     * malformed with U+FFFD instead of failing; only a piece holding a U+FFFD is decoded again
     * strictly, to tell a real U+FFFD from a replaced byte.
     */
    private String piece(int from, int to, boolean ascii, boolean build) throws Bad {
        if (ascii) {
            return build ? new String(b, from, to - from, StandardCharsets.ISO_8859_1) : null;
        }
        String text = new String(b, from, to - from, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') >= 0) {
            CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
            try {
                d.decode(ByteBuffer.wrap(b, from, to - from));
            } catch (CharacterCodingException e) {
                throw new Bad(from, "a string is not valid UTF-8");
            }
        }
        return build ? text : null;
    }

    private void escape(StringBuilder out) throws Bad {
        int at = pos;
        pos++; // '\\'
        if (pos >= end) {
            throw new Bad(at, "a string ends inside an escape");
        }
        char c = (char) b[pos++];
        char v;
        switch (c) {
            case '"' -> v = '"';
            case '\\' -> v = '\\';
            case '/' -> v = '/';
            case 'b' -> v = '\b';
            case 'f' -> v = '\f';
            case 'n' -> v = '\n';
            case 'r' -> v = '\r';
            case 't' -> v = '\t';
            case 'u' -> v = hex4(at);
            default -> throw new Bad(at, "\\" + (c >= 0x20 && c < 0x7F ? String.valueOf(c) : "(byte " + (c & 0xFF) + ")")
                    + " is not a JSON escape");
        }
        if (out != null) {
            out.append(v); // a surrogate pair arrives as two \\u escapes, two chars: Java's UTF-16 as it is
        }
    }

    private char hex4(int at) throws Bad {
        if (end - pos < 4) {
            throw new Bad(at, "\\u needs four hex digits");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(b[pos++], 16);
            if (d < 0) {
                throw new Bad(at, "\\u needs four hex digits");
            }
            v = v << 4 | d;
        }
        return (char) v;
    }

    private void literal(String word) throws Bad {
        int n = word.length();
        if (end - pos < n) {
            throw new Bad(pos, "expected a value, found " + show());
        }
        for (int i = 0; i < n; i++) {
            if (b[pos + i] != word.charAt(i)) {
                throw new Bad(pos, "expected a value, found " + show());
            }
        }
        pos += n;
    }

    private void number() throws Bad {
        int start = pos;
        if (b[pos] == '-') {
            pos++;
            if (pos < end && b[pos] == 'I') {
                literal("Infinity");
                return;
            }
        }
        if (pos < end && b[pos] == '0') {
            pos++;
        } else if (digits() == 0) {
            pos = start;
            throw new Bad(pos, "expected a value, found " + show());
        }
        if (pos < end && b[pos] == '.') {
            pos++;
            if (digits() == 0) {
                throw new Bad(pos, "a number needs digits after its decimal point");
            }
        }
        if (pos < end && (b[pos] == 'e' || b[pos] == 'E')) {
            pos++;
            if (pos < end && (b[pos] == '+' || b[pos] == '-')) {
                pos++;
            }
            if (digits() == 0) {
                throw new Bad(pos, "a number needs digits in its exponent");
            }
        }
    }

    private int digits() {
        int from = pos;
        while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
            pos++;
        }
        return pos - from;
    }

    private void expect(char c) throws Bad {
        if (pos >= end || b[pos] != c) {
            throw new Bad(pos, "expected '" + c + "', found " + show());
        }
        pos++;
    }

    private void skipWs() {
        pos = skipWs(b, pos, end);
    }

    private String show() {
        if (pos >= end) {
            return "the end of the line";
        }
        int c = b[pos] & 0xFF;
        return c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : "byte 0x" + Integer.toHexString(c);
    }
}
