package dev.stoker.text.tokenizers;

import dev.stoker.text.SpecialTokens;
import dev.stoker.text.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.PriorityQueue;

/**
 * A SentencePiece model ({@code .model}: Llama 1 and 2, T5, Gemma, Mistral's first tokenizer),
 * unigram, BPE, word or character, read and run in Java: the ids are those of Python's
 * {@code SentencePieceProcessor(model_file=...).encode(text)} (checked id for id on a corpus with
 * Unicode, NFKC normalization, byte fallback and unknown pieces).
 *
 * <p>Written by hand rather than taken from a library: Google's library is C++, DJL's binding of
 * it is not served here and would add a JNI library per platform, and the algorithm is small: the
 * normalizer's compiled map ({@link CharsMap}), then the unigram model's best segmentation
 * (Viterbi over the pieces' log probabilities), BPE's merges by score, a WORD model's words
 * (the normalized text cut before each {@code U+2581}, each word one piece or unknown) or a CHAR
 * model's characters (a user-defined symbol taken whole where one starts), then byte fallback; a
 * run of unknown pieces is one unknown id, as SentencePiece's processor merges them. User-defined
 * symbols that normalization would change are not kept from it, as SentencePiece keeps them.
 *
 * <pre>{@code
 * SentencePieceTokenizer sp = SentencePieceTokenizer.open(Path.of("tokenizer.model"));
 * int[] ids = sp.encode("Hello world");
 * }</pre>
 */
public final class SentencePieceTokenizer implements Tokenizer {
    private static final float UNK_PENALTY = 10.0f;
    private static final String UNKNOWN_SURFACE = " \u2047 ";

    private final SentencePieceModel model;
    private final SentencePieceNormalizer normalizer;
    private final PieceTrie trie = new PieceTrie();
    private final PieceTrie userDefined = new PieceTrie(); // a CHAR model takes these whole
    private final Map<String, Integer> pieceIds = new HashMap<>();   // normal pieces, by their bytes (Latin-1)
    private final Map<String, Integer> reservedIds = new HashMap<>(); // control, unknown and byte pieces
    private final Map<String, Integer> allIds = new HashMap<>();      // tokenId: every piece by its text
    private final int[] byteIds = new int[256];
    private final float minScore;
    private final float maxScore;
    private final SpecialTokens special;

    private SentencePieceTokenizer(SentencePieceModel model) {
        this.model = model;
        CharsMap map = model.charsMap().length == 0 ? null : CharsMap.parse(model.charsMap(), model.file().toString());
        this.normalizer = new SentencePieceNormalizer(map, model.addDummyPrefix(), model.removeExtraWhitespaces(),
                model.escapeWhitespaces(), model.whitespaceAsSuffix());
        float min = Float.MAX_VALUE;
        float max = Float.MIN_VALUE; // SentencePiece starts from FLT_MIN, the smallest positive float
        java.util.Arrays.fill(byteIds, -1);
        for (int i = 0; i < model.pieces().length; i++) {
            byte t = model.types()[i];
            String key = new String(model.pieceBytes()[i], StandardCharsets.ISO_8859_1);
            allIds.putIfAbsent(model.pieces()[i], i);
            boolean normal = t == SentencePieceModel.NORMAL || t == SentencePieceModel.USER_DEFINED
                    || t == SentencePieceModel.UNUSED;
            (normal ? pieceIds : reservedIds).putIfAbsent(key, i);
            if (normal) {
                trie.add(model.pieceBytes()[i], i);
            }
            if (t == SentencePieceModel.USER_DEFINED) {
                userDefined.add(model.pieceBytes()[i], i);
            }
            if (t == SentencePieceModel.NORMAL) {
                min = Math.min(min, model.scores()[i]);
                max = Math.max(max, model.scores()[i]);
            }
            if (t == SentencePieceModel.BYTE) {
                int b = byteOf(model.pieces()[i]);
                if (b >= 0) {
                    byteIds[b] = i;
                }
            }
        }
        this.minScore = min;
        this.maxScore = max;
        this.special = SpecialTokens.of(model.bosId(), model.eosId(), model.padId(), model.unkId());
    }

    /**
     * Reads a SentencePiece model.
     *
     * @throws IOException when the file cannot be read, or is not a SentencePiece model, naming the file and what is wrong
     */
    public static SentencePieceTokenizer open(Path file) throws IOException {
        return new SentencePieceTokenizer(SentencePieceModel.read(file));
    }

    @Override
    public int[] encode(String text) {
        int[] length = new int[1];
        byte[] norm = normalizer.normalize(text.getBytes(StandardCharsets.UTF_8), length);
        int n = length[0];
        IntList out = new IntList(n / 2 + 4);
        switch (model.modelType()) {
            case SentencePieceModel.UNIGRAM -> unigram(norm, n, out);
            case SentencePieceModel.BPE -> bpe(norm, n, out);
            case SentencePieceModel.WORD -> words(norm, n, out);
            default -> chars(norm, n, out);
        }
        return out.toArray();
    }

    // word_model.cc: SplitIntoWords with its defaults (a word starts at the text's start and at each
    // U+2581, whatever the trainer's whitespace-as-suffix says), each word looked up whole
    private void words(byte[] s, int n, IntList out) {
        int start = 0;
        for (int pos = 0; pos < n; ) {
            int len = Math.min(Utf8.oneCharLength(s[pos]), n - pos);
            if (pos > start && isSpaceSymbol(s, pos, len)) {
                emit(s, start, pos, pieceToId(s, start, pos), out);
                start = pos;
            }
            pos += len;
        }
        if (n > start) {
            emit(s, start, n, pieceToId(s, start, n), out);
        }
    }

    private static boolean isSpaceSymbol(byte[] s, int pos, int len) { // U+2581 in UTF-8: E2 96 81
        return len == 3 && s[pos] == (byte) 0xE2 && s[pos + 1] == (byte) 0x96 && s[pos + 2] == (byte) 0x81;
    }

    // char_model.cc: one character at a time, or the longest user-defined symbol that starts here
    private void chars(byte[] s, int n, IntList out) {
        int[] longest = new int[1];
        for (int pos = 0; pos < n; ) {
            longest[0] = Math.min(Utf8.oneCharLength(s[pos]), n - pos);
            int from = pos;
            userDefined.prefixes(s, from, n, (end, id) -> longest[0] = Math.max(longest[0], end - from));
            emit(s, pos, pos + longest[0], pieceToId(s, pos, pos + longest[0]), out);
            pos += longest[0];
        }
    }

    // unigram_model.cc's EncodeOptimized: the best path ending at each byte, found left to right;
    // ties keep the first candidate seen, as there.
    private void unigram(byte[] s, int n, IntList out) {
        float[] best = new float[n + 1];
        int[] startsAt = new int[n + 1];
        int[] ids = new int[n + 1];
        java.util.Arrays.fill(startsAt, -1);
        float unkScore = minScore - UNK_PENALTY;
        int pos = 0;
        while (pos < n) {
            final int from = pos;
            final float here = best[from];
            final int charLen = Math.min(Utf8.oneCharLength(s[from]), n - from);
            boolean[] single = {false};
            trie.prefixes(s, from, n, (end, id) -> {
                byte type = model.types()[id];
                if (type == SentencePieceModel.UNUSED) {
                    return;
                }
                int len = end - from;
                float score = type == SentencePieceModel.USER_DEFINED ? len * maxScore - 0.1f : model.scores()[id];
                float candidate = score + here;
                if (startsAt[end] == -1 || candidate > best[end]) {
                    best[end] = candidate;
                    startsAt[end] = from;
                    ids[end] = id;
                }
                if (len == charLen) {
                    single[0] = true;
                }
            });
            if (!single[0]) {
                int end = from + charLen;
                float candidate = unkScore + here;
                if (startsAt[end] == -1 || candidate > best[end]) {
                    best[end] = candidate;
                    startsAt[end] = from;
                    ids[end] = model.unkId();
                }
            }
            pos += charLen;
        }
        IntList reversed = new IntList(16);
        IntList bounds = new IntList(16);
        for (int end = n; end > 0; end = startsAt[end]) {
            reversed.add(ids[end]);
            bounds.add(end);
        }
        // a run of unknown pieces is one unknown piece, as unigram_model.cc merges them
        for (int k = reversed.size - 1; k >= 0; k--) {
            int end = bounds.get(k);
            int start = startsAt[end];
            int id = reversed.get(k);
            while (id == model.unkId() && k > 0 && reversed.get(k - 1) == id) {
                end = bounds.get(--k);
            }
            emit(s, start, end, id, out);
        }
    }

    // bpe_model.cc's Encode: characters, then the best-scoring adjacent pair merged again and again
    // (ties: the leftmost), each pair looked up among the pieces.
    private void bpe(byte[] s, int n, IntList out) {
        List<int[]> symbols = new ArrayList<>(); // {start, end, prev, next}
        for (int pos = 0, i = 0; pos < n; i++) {
            int len = Math.min(Utf8.oneCharLength(s[pos]), n - pos);
            symbols.add(new int[] {pos, pos + len, i - 1, pos + len < n ? i + 1 : -1});
            pos += len;
        }
        PriorityQueue<float[]> agenda = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Float.compare(b[0], a[0])
                : Float.compare(a[1], b[1])); // {score, left, right, size}: highest score, then leftmost
        for (int i = 1; i < symbols.size(); i++) {
            addPair(s, symbols, i - 1, i, agenda);
        }
        while (!agenda.isEmpty()) {
            float[] top = agenda.poll();
            int[] left = symbols.get((int) top[1]);
            int[] right = symbols.get((int) top[2]);
            if (left[1] == left[0] || right[1] == right[0] || (left[1] - left[0]) + (right[1] - right[0]) != (int) top[3]) {
                continue; // one side changed since the pair was queued
            }
            left[1] = right[1];
            left[3] = right[3];
            if (right[3] >= 0) {
                symbols.get(right[3])[2] = (int) top[1];
            }
            right[1] = right[0]; // emptied
            addPair(s, symbols, left[2], (int) top[1], agenda);
            addPair(s, symbols, (int) top[1], left[3], agenda);
        }
        for (int i = symbols.isEmpty() ? -1 : 0; i != -1; i = symbols.get(i)[3]) {
            int[] sym = symbols.get(i);
            emit(s, sym[0], sym[1], pieceToId(s, sym[0], sym[1]), out);
        }
    }

    private void addPair(byte[] s, List<int[]> symbols, int left, int right, PriorityQueue<float[]> agenda) {
        if (left == -1 || right == -1) {
            return;
        }
        int start = symbols.get(left)[0];
        int end = symbols.get(right)[1];
        Integer id = pieceIds.get(new String(s, start, end - start, StandardCharsets.ISO_8859_1));
        if (id == null) {
            return;
        }
        agenda.add(new float[] {model.scores()[id], left, right, end - start});
    }

    private int pieceToId(byte[] s, int start, int end) {
        String key = new String(s, start, end - start, StandardCharsets.ISO_8859_1);
        Integer id = reservedIds.get(key);
        if (id == null) {
            id = pieceIds.get(key);
        }
        return id == null ? model.unkId() : id;
    }

    // an unknown piece becomes its UTF-8 bytes when the model falls back to bytes; otherwise a run of
    // unknown pieces is one, as sentencepiece_processor.cc merges them (for every model type)
    private void emit(byte[] s, int start, int end, int id, IntList out) {
        if (id == model.unkId() && model.byteFallback()) {
            for (int k = start; k < end; k++) {
                int b = byteIds[s[k] & 0xFF];
                out.add(b >= 0 ? b : model.unkId());
            }
        } else if (id != model.unkId() || out.size == 0 || out.get(out.size - 1) != id) {
            out.add(id);
        }
    }

    @Override
    public String decode(int[] ids) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder text = new StringBuilder();
        boolean first = true;
        for (int k = 0; k < ids.length; k++) {
            int id = ids[k];
            if (id < 0 || id >= model.pieces().length) {
                throw new IllegalArgumentException(model.file() + ": id " + id + " at " + k + " is outside the vocabulary [0, "
                        + model.pieces().length + ")");
            }
            byte type = model.types()[id];
            if (type == SentencePieceModel.BYTE) {
                bytes.write(byteOf(model.pieces()[id]));
                continue;
            }
            flush(bytes, text);
            if (type == SentencePieceModel.CONTROL) {
                continue;
            }
            String piece = type == SentencePieceModel.UNKNOWN ? UNKNOWN_SURFACE : model.pieces()[id].replace('\u2581', ' ');
            if (first && normalizer.addDummyPrefix() && piece.startsWith(" ")) {
                piece = piece.substring(1);
            }
            first = false;
            text.append(piece);
        }
        flush(bytes, text);
        return text.toString();
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder text) {
        if (bytes.size() > 0) {
            text.append(bytes.toString(StandardCharsets.UTF_8));
            bytes.reset();
        }
    }

    private static int byteOf(String piece) { // "<0x41>"
        if (piece.length() == 6 && piece.startsWith("<0x") && piece.endsWith(">")) {
            try {
                return Integer.parseInt(piece.substring(3, 5), 16);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }

    @Override
    public int vocabSize() {
        return model.pieces().length;
    }

    @Override
    public OptionalInt tokenId(String token) {
        Integer id = allIds.get(token);
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    @Override
    public SpecialTokens specialTokens() {
        return special;
    }

    @Override
    public String name() {
        return model.file().toString();
    }

    @Override
    public String toString() {
        String type = switch (model.modelType()) {
            case SentencePieceModel.UNIGRAM -> "unigram";
            case SentencePieceModel.BPE -> "BPE";
            case SentencePieceModel.WORD -> "word";
            default -> "char";
        };
        return "SentencePieceTokenizer(" + model.file() + ", " + type
                + ", " + model.pieces().length + " pieces, normalizer " + model.normalizerName() + ")";
    }

    private static final class IntList {
        int[] a;
        int size;

        IntList(int capacity) {
            a = new int[Math.max(capacity, 4)];
        }

        void add(int v) {
            if (size == a.length) {
                a = java.util.Arrays.copyOf(a, size * 2);
            }
            a[size++] = v;
        }

        int get(int i) {
            return a[i];
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }
}
