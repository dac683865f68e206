package dev.stoker.text.tokenizers;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import dev.stoker.text.SpecialTokens;
import dev.stoker.text.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A Hugging Face {@code tokenizer.json} (BPE, WordPiece, Unigram, byte-level or not, with its
 * normalizer and pre-tokenizer), run by Hugging Face's own Rust library through DJL's binding
 * ({@code ai.djl.huggingface:tokenizers}): the ids are those of Python's
 * {@code Tokenizer.from_file(path).encode(text, add_special_tokens=False).ids}.
 *
 * <p>DJL's jar carries the native library for Linux, macOS and Windows and unpacks it on first
 * use into its cache folder ({@code ~/.djl.ai}, or the {@code DJL_CACHE_DIR} system property or
 * environment variable): nothing is downloaded.
 *
 * <pre>{@code
 * try (HfTokenizer tok = HfTokenizer.open(Path.of("tokenizer.json"))) {
 *     int[] ids = tok.encode("Hello");
 *     OptionalInt eos = tok.specialTokens().eos();    // <|endoftext|>, </s>, <eos> or [SEP]
 * }
 * }</pre>
 *
 * <p>NOTE: the Rust library encodes a batch on a thread pool of its own (one thread per core),
 * so several workers calling {@link #encodeBatch} at once share the cores with it; set
 * {@code RAYON_NUM_THREADS=1} in the environment to keep each call on its worker's thread.
 */
public final class HfTokenizer implements Tokenizer {
    private final Path path;
    private final HuggingFaceTokenizer tokenizer;
    private final TokenizerJson json;
    private final SpecialTokens special;
    private final ByteLevelBpe javaBpe; // null: every text goes to the Rust library

    private HfTokenizer(Path path, HuggingFaceTokenizer tokenizer, TokenizerJson json, boolean javaBpe) {
        this.path = path;
        this.tokenizer = tokenizer;
        this.json = json;
        this.special = json.specialTokens();
        this.javaBpe = javaBpe ? json.byteLevelBpe() : null;
    }

    /**
     * Reads {@code file}, a {@code tokenizer.json}, or a folder holding one.
     *
     * @throws IOException when the file cannot be read or the library refuses it, naming the file
     */
    public static HfTokenizer open(Path file) throws IOException {
        return open(file, true);
    }

    /**
     * Reads {@code file}; with {@code javaBpe} false, every text goes through the Rust library.
     * With it true (what {@link #open(Path)} does), a byte-level BPE file without normalizer,
     * dropout or byte fallback (GPT-2's scheme) is encoded in Java, to the same ids (checked
     * against Python's {@code tokenizers}) several times faster; other files, and texts that
     * hold an added token, go to the Rust library either way.
     *
     * @throws IOException when the file cannot be read or the library refuses it, naming the file
     */
    public static HfTokenizer open(Path file, boolean javaBpe) throws IOException {
        Path json = Files.isDirectory(file) ? file.resolve("tokenizer.json") : file;
        TokenizerJson info = TokenizerJson.read(json);
        HuggingFaceTokenizer tokenizer;
        try {
            // no truncation, no padding, no template: the ids of the text alone
            tokenizer = HuggingFaceTokenizer.newInstance(json, Map.of("addSpecialTokens", "false",
                    "truncation", "false", "padding", "false", "modelMaxLength", String.valueOf(Integer.MAX_VALUE)));
        } catch (RuntimeException e) {
            throw new IOException(json + ": the tokenizers library refused it: " + e.getMessage(), e);
        }
        return new HfTokenizer(json, tokenizer, info, javaBpe);
    }

    // Straight to the library's encode and ids, not through DJL's Encoding: an Encoding copies
    // eight arrays out of Rust per text (tokens as Strings, offsets, masks), where only the ids
    // are wanted; this is the per-text path of tokenizing in the workers.
    @Override
    public int[] encode(String text) {
        if (javaBpe != null) {
            int[] ids = javaBpe.encode(text);
            if (ids != null) {
                return ids;
            }
        }
        return encodeInRust(text);
    }

    private int[] encodeInRust(String text) {
        long handle = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), text, false);
        try {
            return narrow(TokenizersLibrary.LIB.getTokenIds(handle));
        } finally {
            TokenizersLibrary.LIB.deleteEncoding(handle);
        }
    }

    /** One call into the library for all the texts (it spreads them over its own threads). */
    @Override
    public List<int[]> encodeBatch(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        if (javaBpe != null) {
            List<int[]> out = new ArrayList<>(texts.size());
            for (String t : texts) {
                out.add(encode(t));
            }
            return out;
        }
        long[] handles = TokenizersLibrary.LIB.batchEncode(tokenizer.getHandle(), texts.toArray(String[]::new), false);
        List<int[]> out = new ArrayList<>(handles.length);
        try {
            for (long h : handles) {
                out.add(narrow(TokenizersLibrary.LIB.getTokenIds(h)));
            }
        } finally {
            for (long h : handles) {
                TokenizersLibrary.LIB.deleteEncoding(h);
            }
        }
        return out;
    }

    @Override
    public String decode(int[] ids) {
        long[] wide = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0 || ids[i] >= json.vocabSize()) {
                throw new IllegalArgumentException(path + ": id " + ids[i] + " at " + i + " is outside the vocabulary [0, "
                        + json.vocabSize() + ")");
            }
            wide[i] = ids[i];
        }
        return tokenizer.decode(wide, true);
    }

    @Override
    public int vocabSize() {
        return json.vocabSize();
    }

    @Override
    public OptionalInt tokenId(String token) {
        return json.tokenId(token);
    }

    @Override
    public SpecialTokens specialTokens() {
        return special;
    }

    @Override
    public String name() {
        return path.toString();
    }

    @Override
    public void close() {
        tokenizer.close();
    }

    @Override
    public String toString() {
        return "HfTokenizer(" + path + ", " + json.model() + ", " + json.vocabSize() + " ids"
                + (javaBpe != null ? ", byte-level BPE in Java" : "") + ")";
    }

    private static int[] narrow(long[] ids) {
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = (int) ids[i]; // the library's ids are u32 below the vocabulary size
        }
        return out;
    }
}
