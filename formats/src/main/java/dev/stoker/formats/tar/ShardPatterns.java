package dev.stoker.formats.tar;

import java.util.ArrayList;
import java.util.List;

/**
 * Brace expansion of shard lists, as WebDataset (through the {@code braceexpand} package) and
 * bash do it: {@code shard-{000000..000003}.tar} is four names, zero-padded to the width of the
 * bounds; {@code {train,val}-{0..1}.tar} is four; groups nest. A range may count down
 * ({@code {3..1}}). Text without braces is one name.
 *
 * <pre>{@code
 * List<String> shards = ShardPatterns.expand("data/shard-{000000..000007}.tar");  // 8 names
 * }</pre>
 */
public final class ShardPatterns {
    /** More names than any shard list has: a pattern asking for more is a typo. */
    static final int MAX_NAMES = 10_000_000;

    private ShardPatterns() {
    }

    /** All names {@code pattern} stands for, in order. */
    public static List<String> expand(String pattern) {
        List<String> out = new ArrayList<>();
        expandInto(pattern, pattern, out);
        return out;
    }

    /** The names of several patterns (or plain names), in order. */
    public static List<String> expandAll(List<String> patterns) {
        List<String> out = new ArrayList<>();
        for (String p : patterns) {
            expandInto(p, p, out);
        }
        return out;
    }

    private static void expandInto(String text, String whole, List<String> out) {
        int open = text.indexOf('{');
        if (open < 0) {
            if (text.indexOf('}') >= 0) {
                throw bad(whole, "a '}' without its '{'");
            }
            add(out, text, whole);
            return;
        }
        int close = matching(text, open, whole);
        String head = text.substring(0, open);
        if (head.indexOf('}') >= 0) {
            throw bad(whole, "a '}' without its '{'");
        }
        String body = text.substring(open + 1, close);
        String tail = text.substring(close + 1);
        for (String alternative : alternatives(body, whole)) {
            expandInto(head + alternative + tail, whole, out);
        }
    }

    private static List<String> alternatives(String body, String whole) {
        List<String> parts = splitTopLevel(body);
        if (parts.size() > 1) {
            return parts;
        }
        int dots = body.indexOf("..");
        if (dots < 0 || body.indexOf('{') >= 0) {
            // bash leaves "{x}" as it is; braceexpand does too
            return List.of("{" + body + "}");
        }
        String from = body.substring(0, dots);
        String to = body.substring(dots + 2);
        if (!isNumber(from) || !isNumber(to)) {
            throw bad(whole, "range {" + body + "} is not of the form {FIRST..LAST} with numbers");
        }
        long a = Long.parseLong(from);
        long b = Long.parseLong(to);
        if (Math.abs(b - a) >= MAX_NAMES) {
            throw bad(whole, "range {" + body + "} has more than " + MAX_NAMES + " names");
        }
        boolean padded = (from.length() > 1 && from.startsWith("0")) || (to.length() > 1 && to.startsWith("0"));
        int width = padded ? Math.max(from.length(), to.length()) : 0;
        List<String> names = new ArrayList<>();
        long step = a <= b ? 1 : -1;
        for (long i = a; ; i += step) {
            names.add(width > 0 ? String.format("%0" + width + "d", i) : Long.toString(i));
            if (i == b) {
                break;
            }
        }
        return names;
    }

    private static List<String> splitTopLevel(String body) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(body.substring(start));
        return parts;
    }

    private static int matching(String text, int open, String whole) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw bad(whole, "a '{' without its '}'");
    }

    private static boolean isNumber(String s) {
        return !s.isEmpty() && s.length() <= 18 && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static void add(List<String> out, String name, String whole) {
        if (out.size() >= MAX_NAMES) {
            throw bad(whole, "more than " + MAX_NAMES + " names");
        }
        out.add(name);
    }

    private static IllegalArgumentException bad(String pattern, String what) {
        return new IllegalArgumentException("shard pattern \"" + pattern + "\": " + what);
    }
}
