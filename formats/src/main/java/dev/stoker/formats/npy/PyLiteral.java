package dev.stoker.formats.npy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parser for the small part of Python's literal syntax that a {@code .npy} header uses: a dict
 * of strings, booleans, {@code None}, integers, tuples and lists, as {@code ast.literal_eval}
 * reads it. Values come back as {@code String}, {@code Boolean}, {@code null}, {@code Long},
 * {@link Tuple} and {@code List<Object>}, and dicts as {@code Map<Object, Object>}.
 *
 * <p>The header is untrusted: nesting is limited, integers are checked for overflow, and every
 * error says at which character the text stopped making sense.
 */
final class PyLiteral {
    /** Deeper than any real header; it stops a {@code ((((...} header from exhausting the stack. */
    private static final int MAX_DEPTH = 32;

    /** A Python tuple; kept apart from a list because a shape must be a tuple. */
    record Tuple(List<Object> items) {}

    /** A syntax error at a character position; the caller adds the file's name. */
    static final class SyntaxError extends Exception {
        SyntaxError(String message) {
            super(message);
        }
    }

    private final String text;
    private int pos;

    private PyLiteral(String text) {
        this.text = text;
    }

    /** Parses {@code text} as one literal followed only by whitespace. */
    static Object parse(String text) throws SyntaxError {
        PyLiteral p = new PyLiteral(text);
        Object value = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected " + p.describeHere() + " after the end of the literal");
        }
        return value;
    }

    private Object value(int depth) throws SyntaxError {
        if (depth > MAX_DEPTH) {
            throw error("nested more than " + MAX_DEPTH + " levels deep");
        }
        skipSpace();
        if (pos >= text.length()) {
            throw error("the text ends where a value should be");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> dict(depth);
            case '(' -> tuple(depth);
            case '[' -> list(depth);
            case '\'', '"' -> string();
            default -> {
                if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
                    yield integer();
                }
                if (Character.isLetter(c)) {
                    yield name();
                }
                throw error("unexpected " + describeHere());
            }
        };
    }

    private Map<Object, Object> dict(int depth) throws SyntaxError {
        pos++; // '{'
        Map<Object, Object> out = new LinkedHashMap<>();
        while (true) {
            skipSpace();
            if (peek('}')) {
                pos++;
                return out;
            }
            Object key = value(depth + 1);
            skipSpace();
            expect(':');
            Object v = value(depth + 1);
            out.put(key, v); // a repeated key keeps the last value, as in Python
            skipSpace();
            if (peek(',')) {
                pos++;
            } else if (!peek('}')) {
                throw error("expected ',' or '}' in the dict, found " + describeHere());
            }
        }
    }

    private Object tuple(int depth) throws SyntaxError {
        pos++; // '('
        List<Object> items = new ArrayList<>();
        boolean comma = false;
        while (true) {
            skipSpace();
            if (peek(')')) {
                pos++;
                // (3) is the number 3 in Python, not a tuple; () and (3,) are tuples.
                return items.size() == 1 && !comma ? items.getFirst() : new Tuple(Collections.unmodifiableList(items));
            }
            items.add(value(depth + 1));
            skipSpace();
            if (peek(',')) {
                pos++;
                comma = true;
            } else if (!peek(')')) {
                throw error("expected ',' or ')' in the tuple, found " + describeHere());
            }
        }
    }

    private List<Object> list(int depth) throws SyntaxError {
        pos++; // '['
        List<Object> items = new ArrayList<>();
        while (true) {
            skipSpace();
            if (peek(']')) {
                pos++;
                return items;
            }
            items.add(value(depth + 1));
            skipSpace();
            if (peek(',')) {
                pos++;
            } else if (!peek(']')) {
                throw error("expected ',' or ']' in the list, found " + describeHere());
            }
        }
    }

    private String string() throws SyntaxError {
        char quote = text.charAt(pos++);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("the string is not closed (missing " + quote + ")");
            }
            char c = text.charAt(pos++);
            if (c == quote) {
                return sb.toString();
            }
            if (c == '\n') {
                throw error("a line break inside a string");
            }
            if (c == '\\') {
                if (pos >= text.length()) {
                    throw error("the string ends in a backslash");
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case '\\', '\'', '"' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    default -> throw error("unsupported escape \\" + e + " in a string");
                }
            } else {
                sb.append(c);
            }
        }
    }

    private Long integer() throws SyntaxError {
        int start = pos;
        if (peek('-') || peek('+')) {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == digits) {
            throw error("expected digits after the sign");
        }
        String number = text.substring(start, pos);
        if (pos < text.length() && (text.charAt(pos) == 'L' || text.charAt(pos) == 'l')) {
            pos++; // Python 2's long suffix, written by old NumPy
        }
        if (pos < text.length() && (text.charAt(pos) == '.' || text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            throw error("a non-integer number (" + number + text.charAt(pos) + "...)");
        }
        try {
            return Long.parseLong(number.startsWith("+") ? number.substring(1) : number);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("the integer " + abbreviate(number) + " does not fit in 64 bits");
        }
    }

    private Object name() throws SyntaxError {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        String word = text.substring(start, pos);
        return switch (word) {
            case "True" -> Boolean.TRUE;
            case "False" -> Boolean.FALSE;
            case "None" -> null;
            default -> {
                pos = start;
                throw error("unexpected name '" + abbreviate(word) + "' (only True, False and None are literals)");
            }
        };
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) throws SyntaxError {
        if (!peek(c)) {
            throw error("expected '" + c + "', found " + describeHere());
        }
        pos++;
    }

    private String describeHere() {
        if (pos >= text.length()) {
            return "the end of the text";
        }
        char c = text.charAt(pos);
        return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int) c);
    }

    private SyntaxError error(String what) {
        return new SyntaxError("header dict, character " + pos + ": " + what);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
