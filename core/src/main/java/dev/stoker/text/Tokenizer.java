package dev.stoker.text;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Turns text into token ids and back: a Hugging Face {@code tokenizer.json}, a SentencePiece
 * model, or a tokenizer of your own. Datasets that tokenize in the workers
 * ({@link TokenizedStream}) take one.
 *
 * <p>{@link #encode} adds no special tokens (no BOS, no EOS, no template): it is
 * {@code tokenizer.encode(text, add_special_tokens=False)} of Hugging Face and
 * {@code sp.encode(text)} of SentencePiece. Code that wants a document's end marked appends
 * {@link SpecialTokens#eos()} itself, as Megatron's {@code preprocess_data.py --append-eod} does,
 * so the same rule holds whatever the tokenizer's template says.
 *
 * <p>Workers share one tokenizer, so {@link #encode}, {@link #encodeBatch} and {@link #decode}
 * must be safe to call from several threads at once.
 *
 * <pre>{@code
 * int[] ids = tokenizer.encode("The quick brown fox");
 * String back = tokenizer.decode(ids);                     // for inspection
 * List<int[]> batch = tokenizer.encodeBatch(List.of("a", "b"));
 * }</pre>
 */
public interface Tokenizer extends AutoCloseable {

    /** The token ids of {@code text}, without special tokens. */
    int[] encode(String text);

    /**
     * The token ids of each text, in order: one call for many texts. The default is a loop over
     * {@link #encode}; a tokenizer that gains from seeing many texts at once (one native call,
     * its own threads) overrides it.
     */
    default List<int[]> encodeBatch(List<String> texts) {
        List<int[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(encode(t));
        }
        return out;
    }

    /**
     * The text of {@code ids}, special tokens left out: for inspecting data, not for training.
     *
     * @throws IllegalArgumentException for an id outside the vocabulary
     */
    String decode(int[] ids);

    /** The number of ids: every id {@link #encode} returns is in {@code [0, vocabSize())}. */
    int vocabSize();

    /** The id of the token spelled {@code token} (a special token such as {@code "</s>"}), if the vocabulary has it. */
    OptionalInt tokenId(String token);

    /** The tokenizer's beginning, end, padding and unknown tokens, those it has. */
    SpecialTokens specialTokens();

    /** A name for error messages and reports: the file it was read from. */
    String name();

    /** Releases what the tokenizer holds outside the heap; the default holds nothing. */
    @Override
    default void close() {
    }
}
