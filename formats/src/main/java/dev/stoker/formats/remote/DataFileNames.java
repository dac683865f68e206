package dev.stoker.formats.remote;

import java.util.Optional;

/**
 * The rule for file names that come from data rather than from the user: the shard names an
 * index lists ({@code index.json}'s {@code basename}s), names a server answers. Such a name
 * becomes a local path (in a cache, a decompression folder) and is handed to a {@code pipe:}
 * command or pasted into a URL, so it is held to plain file names, the names writers such as
 * Streaming's make ({@code shard.00000.mds.zstd}): letters, digits, {@code .}, {@code _} and
 * {@code -}, not starting with a dot or a dash, with no {@code ..}. That leaves no path separator,
 * no way out of a folder, no shell metacharacter, quote, space or control character, no option
 * look-alike, and no two spellings of one name (no Unicode).
 *
 * <p>This is a second wall, not the only one: names reach a command through its environment,
 * never through its text ({@link RemoteFile}).
 */
public final class DataFileNames {
    /** The rule in words, for error messages. */
    public static final String RULE = "ASCII letters, digits, '.', '_' and '-', not starting with '.' or '-',"
            + " without '..', at most " + DataFileNames.MAX_LENGTH + " characters";
    /** The longest name allowed: the common file system limit. */
    public static final int MAX_LENGTH = 255;

    private DataFileNames() {
    }

    /**
     * What is wrong with {@code name} as a file name from data ({@code "it holds '$'"}), or empty
     * when it is a plain file name.
     */
    public static Optional<String> problem(String name) {
        if (name.isEmpty()) {
            return Optional.of("it is empty");
        }
        if (name.length() > MAX_LENGTH) {
            return Optional.of("it is " + name.length() + " characters long");
        }
        char first = name.charAt(0);
        if (first == '.' || first == '-') {
            return Optional.of("it starts with " + quoted(String.valueOf(first)));
        }
        if (name.contains("..")) {
            return Optional.of("it holds '..'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '-')) {
                return Optional.of("it holds " + quoted(String.valueOf(c)));
            }
        }
        return Optional.empty();
    }

    /**
     * The error for a name from data that breaks the rule: {@code "the basename 'a$b' is not a
     * plain file name: it holds '$' (a name from data must be ...)"}, where {@code what} says which
     * name it is; empty when {@code name} keeps the rule.
     */
    public static Optional<String> refusal(String what, String name) {
        return problem(name).map(p -> "the " + what + " " + quoted(name) + " is not a plain file name: " + p
                + " (a file name from data must be " + RULE + ")");
    }

    /**
     * {@code name} quoted for a message: control characters, quotes and backslashes escaped as in
     * Java, non-ASCII as {@code \}{@code uXXXX}, so that a hostile name can neither forge lines of a
     * log nor hide what it is; long names are cut.
     */
    public static String quoted(String name) {
        StringBuilder b = new StringBuilder(Math.min(name.length(), 200) + 2).append('\'');
        for (int i = 0; i < name.length() && i < 200; i++) {
            char c = name.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\\' -> b.append("\\\\");
                case '\'' -> b.append("\\'");
                default -> {
                    if (c < 0x20 || c >= 0x7f) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append(name.length() > 200 ? "...'" : "'").toString();
    }
}
