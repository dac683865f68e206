package dev.stoker.text.tokenizers;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GPT-2's byte-level BPE, the scheme of GPT-2, RoBERTa, Llama 3 and most {@code tokenizer.json}
 * files with a {@code ByteLevel} pre-tokenizer, run in Java: the ids are Hugging Face's for the
 * files it takes ({@link #of} says which), checked id for id against Python's {@code tokenizers}.
 *
 * <p>Why beside the Rust library: the Rust library builds a full {@code Encoding} per text
 * (offsets, masks, tokens as strings) and crosses JNI twice per text; tokenizing is most of the
 * time of pretraining from text. Here a text is split by the GPT-2 pattern, and each piece's ids
 * come from a cache of pieces already seen, or from the merges applied by rank (as tiktoken
 * does); nothing else is built. Texts holding an added token (such as
 * {@code <|endoftext|>}) are left to the Rust library, which matches those first.
 */
final class ByteLevelBpe {
    // the ByteLevel pre-tokenizer's pattern (GPT-2's); \s as Unicode's White_Space, as the Rust regex reads it
    private static final Pattern SPLIT = Pattern.compile(
            "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
            Pattern.UNICODE_CHARACTER_CLASS);
    private static final int CACHE_LIMIT = 1 << 18;

    private final int[] byteIds = new int[256];         // the id of each byte's character
    private final Map<Long, long[]> merges;             // (left id, right id) -> {rank, merged id}
    private final List<String> addedTokens;
    private final boolean addPrefixSpace;
    private final ConcurrentHashMap<String, int[]> cache = new ConcurrentHashMap<>();

    private ByteLevelBpe(Map<Long, long[]> merges, List<String> addedTokens, boolean addPrefixSpace) {
        this.merges = merges;
        this.addedTokens = addedTokens;
        this.addPrefixSpace = addPrefixSpace;
    }

    /**
     * The fast path for {@code root}, or null where the file asks for more than it does: a
     * normalizer, another pre-tokenizer, BPE dropout, an unknown token, subword prefixes or
     * suffixes, byte fallback, merges that ignore the vocabulary, or a byte with no id.
     */
    static ByteLevelBpe of(JsonObject root) {
        try {
            if (!isNull(root.get("normalizer"))) {
                return null;
            }
            JsonElement pre = root.get("pre_tokenizer");
            if (pre == null || !pre.isJsonObject() || !"ByteLevel".equals(string(pre.getAsJsonObject(), "type"))
                    || (pre.getAsJsonObject().has("use_regex") && !pre.getAsJsonObject().get("use_regex").getAsBoolean())) {
                return null;
            }
            boolean prefix = pre.getAsJsonObject().has("add_prefix_space")
                    && pre.getAsJsonObject().get("add_prefix_space").getAsBoolean();
            JsonObject model = root.getAsJsonObject("model");
            if (!"BPE".equals(string(model, "type")) || !isNull(model.get("dropout")) || !isNull(model.get("unk_token"))
                    || !isNull(model.get("continuing_subword_prefix")) || !isNull(model.get("end_of_word_suffix"))
                    || isTrue(model.get("byte_fallback")) || isTrue(model.get("ignore_merges"))
                    || !model.has("vocab") || !model.get("vocab").isJsonObject()) {
                return null;
            }
            Map<String, Integer> vocab = new HashMap<>();
            for (Map.Entry<String, JsonElement> e : model.getAsJsonObject("vocab").entrySet()) {
                vocab.put(e.getKey(), e.getValue().getAsInt());
            }
            Map<Long, long[]> merges = new HashMap<>();
            JsonArray list = model.getAsJsonArray("merges");
            for (int rank = 0; rank < list.size(); rank++) {
                JsonElement m = list.get(rank);
                String a;
                String b;
                if (m.isJsonArray()) {
                    a = m.getAsJsonArray().get(0).getAsString();
                    b = m.getAsJsonArray().get(1).getAsString();
                } else {
                    String[] parts = m.getAsString().split(" ", 2);
                    if (parts.length != 2) {
                        return null;
                    }
                    a = parts[0];
                    b = parts[1];
                }
                Integer ia = vocab.get(a);
                Integer ib = vocab.get(b);
                Integer merged = vocab.get(a + b);
                if (ia == null || ib == null || merged == null) {
                    return null; // Rust refuses such a file; leave the error to it
                }
                merges.putIfAbsent(key(ia, ib), new long[] {rank, merged});
            }
            List<String> added = new java.util.ArrayList<>();
            JsonElement addedTokens = root.get("added_tokens");
            if (addedTokens != null && addedTokens.isJsonArray()) {
                for (JsonElement t : addedTokens.getAsJsonArray()) {
                    added.add(t.getAsJsonObject().get("content").getAsString());
                }
            }
            ByteLevelBpe bpe = new ByteLevelBpe(merges, List.copyOf(added), prefix);
            char[] chars = byteChars();
            for (int b = 0; b < 256; b++) {
                Integer id = vocab.get(String.valueOf(chars[b]));
                if (id == null) {
                    return null;
                }
                bpe.byteIds[b] = id;
            }
            return bpe;
        } catch (RuntimeException e) { // a field of another shape than expected: the Rust library decides
            return null;
        }
    }

    /** The ids of {@code text}, or null when it holds an added token (the caller asks the Rust library). */
    int[] encode(String text) {
        for (String t : addedTokens) {
            if (text.contains(t)) {
                return null;
            }
        }
        if (addPrefixSpace && !text.isEmpty() && text.charAt(0) != ' ') {
            text = " " + text;
        }
        IntList out = new IntList(text.length() / 3 + 4);
        Matcher m = SPLIT.matcher(text);
        while (m.find()) {
            String piece = text.substring(m.start(), m.end());
            int[] ids = cache.get(piece);
            if (ids == null) {
                ids = bpe(piece.getBytes(StandardCharsets.UTF_8));
                if (cache.size() > CACHE_LIMIT) {
                    cache.clear();
                }
                cache.put(piece, ids);
            }
            out.addAll(ids);
        }
        return out.toArray();
    }

    // the merges by rank, the lowest first, the leftmost of equal ones first (Hugging Face's Word::merge_all)
    private int[] bpe(byte[] bytes) {
        int n = bytes.length;
        int[] sym = new int[n];
        for (int i = 0; i < n; i++) {
            sym[i] = byteIds[bytes[i] & 0xFF];
        }
        while (n > 1) {
            long best = Long.MAX_VALUE;
            int at = -1;
            int merged = 0;
            for (int i = 0; i + 1 < n; i++) {
                long[] m = merges.get(key(sym[i], sym[i + 1]));
                if (m != null && m[0] < best) {
                    best = m[0];
                    at = i;
                    merged = (int) m[1];
                }
            }
            if (at < 0) {
                break;
            }
            sym[at] = merged;
            System.arraycopy(sym, at + 2, sym, at + 1, n - at - 2);
            n--;
        }
        return java.util.Arrays.copyOf(sym, n);
    }

    private static long key(int a, int b) {
        return (long) a << 32 | (b & 0xFFFFFFFFL);
    }

    /** GPT-2's {@code bytes_to_unicode}: printable bytes stand for themselves, the others for 256 + k. */
    static char[] byteChars() {
        char[] out = new char[256];
        int next = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            out[b] = printable ? (char) b : (char) (256 + next++);
        }
        return out;
    }

    private static boolean isNull(JsonElement e) {
        return e == null || e.isJsonNull();
    }

    private static boolean isTrue(JsonElement e) {
        return e != null && !e.isJsonNull() && e.getAsBoolean();
    }

    private static String string(JsonObject o, String name) {
        JsonElement e = o.get(name);
        return e == null || e.isJsonNull() ? null : e.getAsString();
    }

    private static final class IntList {
        int[] a;
        int size;

        IntList(int capacity) {
            a = new int[capacity];
        }

        void addAll(int[] v) {
            if (size + v.length > a.length) {
                a = java.util.Arrays.copyOf(a, Math.max(a.length * 2, size + v.length));
            }
            System.arraycopy(v, 0, a, size, v.length);
            size += v.length;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }
}
