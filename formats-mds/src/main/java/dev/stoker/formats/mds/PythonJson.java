package dev.stoker.formats.mds;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON text as Python's {@code json.dumps(obj, sort_keys=True)} writes it: {@code ", "} and
 * {@code ": "} between items, keys in order, non-ASCII escaped. Streaming writes each shard's
 * config and {@code index.json} this way, so {@link MdsWriter}'s output matches Streaming's byte
 * for byte. Takes what those hold: maps, lists, strings, whole numbers and null.
 */
final class PythonJson {
    private PythonJson() {}

    static String dumps(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(out, s);
            case Integer i -> out.append(i);
            case Long l -> out.append(l);
            case Map<?, ?> map -> {
                out.append('{');
                String sep = "";
                for (Map.Entry<?, ?> e : new TreeMap<>(map).entrySet()) {
                    out.append(sep);
                    string(out, (String) e.getKey());
                    out.append(": ");
                    write(out, e.getValue());
                    sep = ", ";
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                String sep = "";
                for (Object item : list) {
                    out.append(sep);
                    write(out, item);
                    sep = ", ";
                }
                out.append(']');
            }
            default -> throw new IllegalArgumentException("no JSON for a " + value.getClass().getSimpleName());
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
