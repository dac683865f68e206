package dev.stoker.loader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON form of a {@link LoaderState}: the same text Jackson writes for the record (its
 * components by name, in order), so a checkpoint written either way reads either way.
 *
 * <p>Written by hand because core depends on the JDK alone, and a state is a fixed shape of
 * whole numbers, booleans and arrays of them: a general JSON library would be a dependency for
 * sixty lines. The reader takes only that shape, and takes it strictly, as a checkpoint file is
 * untrusted: a bounded length and depth, whole numbers that fit a long, no key twice, no key the
 * records do not have. What it reads then goes through the records' own checks.
 */
final class StateJson {
    /** The longest text read: far beyond any real state (a few numbers per worker and batch ahead). */
    static final int MAX_CHARS = 16 << 20;

    private static final Set<String> STATE_KEYS = Set.of("epoch", "nextBatch", "deliveredAhead", "seed", "datasetSize",
            "batchesPerEpoch", "streams", "rank", "worldSize");
    private static final Set<String> STREAM_KEYS = Set.of("rank", "worldSize", "batchSize", "turn", "delivered",
            "samples", "batches", "ended", "start");
    /** The numbers held as longs; the others (ranks, world sizes, batch size, turn) are ints. */
    private static final Set<String> STATE_WIDE = Set.of("epoch", "nextBatch", "seed", "datasetSize", "batchesPerEpoch",
            "delivered");

    private StateJson() {}

    static String write(LoaderState s) {
        StringBuilder out = new StringBuilder(128);
        out.append("{\"epoch\":").append(s.epoch())
                .append(",\"nextBatch\":").append(s.nextBatch())
                .append(",\"deliveredAhead\":");
        longs(out, s.deliveredAhead());
        out.append(",\"seed\":").append(s.seed())
                .append(",\"datasetSize\":").append(s.datasetSize())
                .append(",\"batchesPerEpoch\":").append(s.batchesPerEpoch())
                .append(",\"streams\":");
        StreamState t = s.streams();
        if (t == null) {
            out.append("null");
        } else {
            out.append("{\"rank\":").append(t.rank())
                    .append(",\"worldSize\":").append(t.worldSize())
                    .append(",\"batchSize\":").append(t.batchSize())
                    .append(",\"turn\":").append(t.turn())
                    .append(",\"delivered\":").append(t.delivered())
                    .append(",\"samples\":");
            longs(out, t.samples());
            out.append(",\"batches\":");
            longs(out, t.batches());
            out.append(",\"ended\":");
            boolean[] ended = t.ended();
            out.append('[');
            for (int i = 0; i < ended.length; i++) {
                out.append(i == 0 ? "" : ",").append(ended[i]);
            }
            out.append("],\"start\":");
            long[] start = t.start();
            if (start == null) {
                out.append("null");
            } else {
                longs(out, start);
            }
            out.append('}');
        }
        return out.append(",\"rank\":").append(s.rank()).append(",\"worldSize\":").append(s.worldSize()).append('}')
                .toString();
    }

    private static void longs(StringBuilder out, long[] values) {
        out.append('[');
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ",").append(values[i]);
        }
        out.append(']');
    }

    static LoaderState read(String text) {
        if (text.length() > MAX_CHARS) {
            throw new IllegalArgumentException("a loader state's JSON is at most " + MAX_CHARS + " characters; this one"
                    + " has " + text.length() + " (not a state?)");
        }
        JsonReader in = new JsonReader(text);
        Map<String, Json> fields = in.object(STATE_KEYS, "a loader state");
        in.end();
        Json streams = fields.getOrDefault("streams", Json.NULL);
        return new LoaderState(number(fields, "epoch", null), number(fields, "nextBatch", null),
                longs(fields, "deliveredAhead"), number(fields, "seed", null), number(fields, "datasetSize", null),
                number(fields, "batchesPerEpoch", null),
                streams == Json.NULL ? null : streamState(streams),
                // states from before Stoker recorded rank and world size have neither: 0 and 0
                (int) number(fields, "rank", 0L), (int) number(fields, "worldSize", 0L));
    }

    private static StreamState streamState(Json value) {
        if (!(value instanceof Json.Obj(Map<String, Json> fields))) {
            throw new IllegalArgumentException("a loader state's streams are an object or null, not " + value);
        }
        Json start = fields.getOrDefault("start", Json.NULL);
        return new StreamState((int) number(fields, "rank", null), (int) number(fields, "worldSize", null),
                (int) number(fields, "batchSize", null), (int) number(fields, "turn", null),
                number(fields, "delivered", null), longs(fields, "samples"), longs(fields, "batches"), booleans(fields),
                start == Json.NULL ? null : longs(fields, "start"));
    }

    /** The field's whole number; {@code absent} when it is missing (null: it must be there). */
    private static long number(Map<String, Json> fields, String key, Long absent) {
        Json v = fields.get(key);
        if (v == null && absent != null) {
            return absent;
        }
        if (!(v instanceof Json.Num(long n))) {
            throw new IllegalArgumentException("a loader state's " + key + " is a whole number, not "
                    + (v == null ? "missing" : v));
        }
        if (n != (int) n && !STATE_WIDE.contains(key)) {
            throw new IllegalArgumentException("a loader state's " + key + " is an int, not " + n);
        }
        return n;
    }

    private static long[] longs(Map<String, Json> fields, String key) {
        List<Json> items = array(fields, key);
        long[] out = new long[items.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(items.get(i) instanceof Json.Num(long n))) {
                throw new IllegalArgumentException("a loader state's " + key + "[" + i + "] is a whole number, not "
                        + items.get(i));
            }
            out[i] = n;
        }
        return out;
    }

    private static boolean[] booleans(Map<String, Json> fields) {
        List<Json> items = array(fields, "ended");
        boolean[] out = new boolean[items.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(items.get(i) instanceof Json.Bool(boolean b))) {
                throw new IllegalArgumentException("a loader state's ended[" + i + "] is true or false, not "
                        + items.get(i));
            }
            out[i] = b;
        }
        return out;
    }

    private static List<Json> array(Map<String, Json> fields, String key) {
        Json v = fields.get(key);
        if (!(v instanceof Json.Arr(List<Json> items))) {
            throw new IllegalArgumentException("a loader state's " + key + " is an array, not "
                    + (v == null ? "missing" : v));
        }
        return items;
    }

    /** The values a state's JSON holds. */
    private sealed interface Json {
        Json NULL = new Null();

        record Null() implements Json {
            @Override
            public String toString() {
                return "null";
            }
        }

        record Num(long value) implements Json {
            @Override
            public String toString() {
                return Long.toString(value);
            }
        }

        record Bool(boolean value) implements Json {
            @Override
            public String toString() {
                return Boolean.toString(value);
            }
        }

        record Arr(List<Json> items) implements Json {
            @Override
            public String toString() {
                return "an array";
            }
        }

        record Obj(Map<String, Json> fields) implements Json {
            @Override
            public String toString() {
                return "an object";
            }
        }
    }

    /** A strict reader of the JSON above: objects with known keys, arrays, whole numbers, booleans, null. */
    private static final class JsonReader {
        private final String text;
        private int at;
        private int depth;

        JsonReader(String text) {
            this.text = text;
        }

        Map<String, Json> object(Set<String> keys, String what) {
            skipSpace();
            if (!(value(keys, what) instanceof Json.Obj(Map<String, Json> fields))) {
                throw error("a loader state is a JSON object");
            }
            return fields;
        }

        void end() {
            skipSpace();
            if (at != text.length()) {
                throw error("text after the end of the state");
            }
        }

        private Json value(Set<String> keys, String what) {
            skipSpace();
            if (at >= text.length()) {
                throw error("the text ends where a value should be");
            }
            char c = text.charAt(at);
            return switch (c) {
                case '{' -> obj(keys, what);
                case '[' -> arr();
                case 't' -> word("true", new Json.Bool(true));
                case 'f' -> word("false", new Json.Bool(false));
                case 'n' -> word("null", Json.NULL);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("'" + c + "' starts no value a loader state holds");
                }
            };
        }

        private Json obj(Set<String> keys, String what) {
            enter();
            at++;
            Map<String, Json> fields = new LinkedHashMap<>();
            skipSpace();
            if (peek() == '}') {
                at++;
                depth--;
                return new Json.Obj(fields);
            }
            while (true) {
                skipSpace();
                String key = key();
                if (!keys.contains(key)) {
                    throw error(what + " has no field \"" + key + "\" (fields: " + keys + ")");
                }
                skipSpace();
                expect(':');
                Json v = value(key.equals("streams") ? STREAM_KEYS : Set.of(), "a loader state's streams");
                if (fields.put(key, v) != null) {
                    throw error(what + " has \"" + key + "\" twice");
                }
                skipSpace();
                if (peek() == ',') {
                    at++;
                } else {
                    expect('}');
                    depth--;
                    return new Json.Obj(fields);
                }
            }
        }

        private Json arr() {
            enter();
            at++;
            List<Json> items = new ArrayList<>();
            skipSpace();
            if (peek() == ']') {
                at++;
                depth--;
                return new Json.Arr(items);
            }
            while (true) {
                Json v = value(Set.of(), "an array item");
                if (v instanceof Json.Arr || v instanceof Json.Obj) {
                    throw error("a loader state's arrays hold numbers or booleans, not " + v);
                }
                items.add(v);
                skipSpace();
                if (peek() == ',') {
                    at++;
                } else {
                    expect(']');
                    depth--;
                    return new Json.Arr(items);
                }
            }
        }

        /** A key: the plain names the records have, so no escapes. */
        private String key() {
            expect('"');
            int from = at;
            while (at < text.length() && text.charAt(at) != '"') {
                char c = text.charAt(at);
                if (c == '\\' || c < ' ' || at - from > 32) {
                    throw error("a field name of a loader state is a short plain name");
                }
                at++;
            }
            expect('"');
            return text.substring(from, at - 1);
        }

        private Json number() {
            int from = at;
            if (peek() == '-') {
                at++;
            }
            int digits = at;
            while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
                at++;
            }
            if (at == digits || (text.charAt(digits) == '0' && at - digits > 1)) {
                throw error("not a JSON number");
            }
            if (at < text.length() && (text.charAt(at) == '.' || text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
                throw error("a loader state holds whole numbers only");
            }
            try {
                return new Json.Num(Long.parseLong(text, from, at, 10));
            } catch (NumberFormatException e) {
                throw error("the number " + text.substring(from, at) + " does not fit a long");
            }
        }

        private Json word(String word, Json value) {
            if (!text.startsWith(word, at)) {
                throw error("not a JSON value");
            }
            at += word.length();
            return value;
        }

        private void enter() {
            // a state nests three deep at most: the state, its streams, their arrays
            if (++depth > 3) {
                throw error("a loader state nests three levels deep at most");
            }
        }

        private char peek() {
            return at < text.length() ? text.charAt(at) : '\0';
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error(at >= text.length() ? "the text ends where '" + c + "' should be" : "'" + c + "' expected");
            }
            at++;
        }

        private void skipSpace() {
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                    return;
                }
                at++;
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("not a loader state's JSON at character " + at + ": " + what);
        }
    }
}
