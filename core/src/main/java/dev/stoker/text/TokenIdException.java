package dev.stoker.text;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;

/**
 * A token id outside the vocabulary: negative, or at least the vocabulary's size. Such an id
 * would reach the model's embedding lookup, which on a GPU fails far from its cause (a device-side
 * assert) or, unchecked, reads another row's memory; the datasets that know a vocabulary size
 * refuse it where it is read, naming the file, the document (or example, or text) and the token.
 *
 * <pre>
 * data/sft.jsonl, example 1742: token 31 is id 50304, outside the vocabulary of 50257 ids
 * </pre>
 */
public final class TokenIdException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    private final long id;
    private final int token;
    private final int vocabSize;

    /**
     * @param source    the file, or the dataset's name
     * @param position  the document, example or text the id is in
     * @param token     the id's place in that document, from 0
     * @param id        the id found
     * @param vocabSize the number of ids of the vocabulary
     */
    public TokenIdException(String source, DataPosition position, int token, long id, int vocabSize) {
        super(source, position, "token " + token + " is id " + id + ", outside the vocabulary of " + vocabSize
                + " ids" + (id < 0 ? " (ids are never negative)" : ""));
        this.id = id;
        this.token = token;
        this.vocabSize = vocabSize;
    }

    /** The id found. */
    public long id() {
        return id;
    }

    /** The id's place in its document, example or text, from 0. */
    public int token() {
        return token;
    }

    /** The vocabulary's size the id was checked against. */
    public int vocabSize() {
        return vocabSize;
    }
}
