package dev.stoker.text.tokenizers;

import dev.stoker.data.DataFiles;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.stoker.text.SpecialTokens;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What a {@code tokenizer.json} says that DJL's binding does not expose: the vocabulary's size,
 * the id of a token by its spelling, and which added tokens are the special ones. Read with Gson,
 * which DJL's api brings along (no dependency of our own).
 */
record TokenizerJson(String model, int vocabSize, Map<String, Integer> vocab, SpecialTokens specialTokens,
                     ByteLevelBpe byteLevelBpe) { // byteLevelBpe: null where the file needs the Rust library

    // the spellings of the usual special tokens, first match wins (GPT-2, Llama, Gemma, BERT)
    private static final List<String> EOS = List.of("<|endoftext|>", "</s>", "<eos>", "<|end_of_text|>", "[SEP]");
    private static final List<String> BOS = List.of("<s>", "<bos>", "<|begin_of_text|>", "[CLS]");
    private static final List<String> PAD = List.of("<pad>", "[PAD]", "<|pad|>");
    private static final List<String> UNK = List.of("<unk>", "[UNK]", "<|unk|>");

    static TokenizerJson read(Path file) throws IOException {
        JsonObject root;
        DataFiles.requireRegularFile(file); // a FIFO would block the read, a device read without end
        try (Reader in = Files.newBufferedReader(file)) {
            JsonElement e = JsonParser.parseReader(in);
            if (!e.isJsonObject()) {
                throw new IOException(file + ": not a tokenizer.json: the top level is not a JSON object");
            }
            root = e.getAsJsonObject();
        } catch (JsonParseException | IllegalStateException e) {
            throw new IOException(file + ": not a tokenizer.json: " + e.getMessage(), e);
        }
        if (!root.has("model") || !root.get("model").isJsonObject()) {
            throw new IOException(file + ": not a tokenizer.json: it has no \"model\" object");
        }
        JsonObject model = root.getAsJsonObject("model");
        String type = model.has("type") ? model.get("type").getAsString() : "BPE";
        Map<String, Integer> vocab = new HashMap<>();
        JsonElement v = model.get("vocab");
        try {
            if (v != null && v.isJsonObject()) { // BPE, WordPiece, WordLevel: token -> id
                for (Map.Entry<String, JsonElement> e : v.getAsJsonObject().entrySet()) {
                    vocab.put(e.getKey(), e.getValue().getAsInt());
                }
            } else if (v != null && v.isJsonArray()) { // Unigram: [token, score] at its id
                JsonArray pieces = v.getAsJsonArray();
                for (int i = 0; i < pieces.size(); i++) {
                    vocab.put(pieces.get(i).getAsJsonArray().get(0).getAsString(), i);
                }
            } else {
                throw new IOException(file + ": model \"" + type + "\" has no vocab");
            }
            JsonElement added = root.get("added_tokens");
            Map<String, Integer> special = new HashMap<>();
            if (added != null && added.isJsonArray()) {
                for (JsonElement a : added.getAsJsonArray()) {
                    JsonObject t = a.getAsJsonObject();
                    String content = t.get("content").getAsString();
                    int id = t.get("id").getAsInt();
                    vocab.put(content, id);
                    if (t.has("special") && t.get("special").getAsBoolean()) {
                        special.put(content, id);
                    }
                }
            }
            int size = 0;
            for (int id : vocab.values()) {
                if (id < 0) {
                    throw new IOException(file + ": a token has the negative id " + id);
                }
                size = Math.max(size, id + 1);
            }
            SpecialTokens tokens = new SpecialTokens(first(special, BOS), first(special, EOS), first(special, PAD),
                    first(vocab, UNK));
            return new TokenizerJson(type, size, Map.copyOf(vocab), tokens, ByteLevelBpe.of(root));
        } catch (RuntimeException e) { // a field of the wrong JSON type
            throw new IOException(file + ": not a tokenizer.json: " + e.getMessage(), e);
        }
    }

    OptionalInt tokenId(String token) {
        Integer id = vocab.get(token);
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    private static OptionalInt first(Map<String, Integer> tokens, List<String> names) {
        for (String n : names) {
            Integer id = tokens.get(n);
            if (id != null) {
                return OptionalInt.of(id);
            }
        }
        return OptionalInt.empty();
    }
}
