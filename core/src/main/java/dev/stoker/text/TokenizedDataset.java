package dev.stoker.text;

import dev.stoker.data.DataPosition;
import dev.stoker.data.Dataset;
import java.util.List;
import java.util.Objects;

/**
 * Texts of a map-style dataset tokenized in the workers: sample {@code i} is the ids of text
 * {@code i}, and a batch's texts are encoded with one {@link Tokenizer#encodeBatch} call
 * ({@link #getBatch}, the loader's batched fetch). Over a Parquet text column or an indexed JSONL
 * file, the ids stay random-access, so shuffle, resume and rank split are the loader's. An id
 * outside {@code [0, tokenizer.vocabSize())} is refused ({@link TokenIdException}, naming the
 * text), not passed on to the model's embedding.
 *
 * <pre>{@code
 * Dataset<String> texts = Datasets.map(parquet, row -> row.getString("text"));
 * Dataset<int[]> ids = TokenizedDataset.of(texts, tokenizer);
 * DataLoader<int[]> loader = DataLoader.builder(ids).batchSize(32).shuffle(true).numWorkers(4)
 *         .collate(PadCollate.of()).build();
 * }</pre>
 */
public final class TokenizedDataset implements Dataset<int[]> {
    private final Dataset<String> texts;
    private final Tokenizer tokenizer;

    private TokenizedDataset(Dataset<String> texts, Tokenizer tokenizer) {
        this.texts = Objects.requireNonNull(texts, "texts");
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    }

    /** The ids of each text of {@code texts}, encoded by {@code tokenizer}. */
    public static TokenizedDataset of(Dataset<String> texts, Tokenizer tokenizer) {
        return new TokenizedDataset(texts, tokenizer);
    }

    @Override
    public long size() {
        return texts.size();
    }

    /** @throws TokenIdException if the tokenizer gave an id outside its own vocabulary */
    @Override
    public int[] get(long index) {
        return checked(tokenizer.encode(texts.get(index)), index);
    }

    /** The batch's texts fetched together, then encoded in one call. */
    @Override
    public List<int[]> getBatch(long[] indices) {
        List<String> batch = texts.getBatch(indices);
        List<int[]> ids = tokenizer.encodeBatch(batch);
        if (ids.size() != batch.size()) {
            throw new IllegalStateException(tokenizer.name() + " gave " + ids.size() + " encodings for " + batch.size()
                    + " texts");
        }
        for (int k = 0; k < ids.size(); k++) {
            checked(ids.get(k), indices[k]);
        }
        return ids;
    }

    // a tokenizer's ids are its own, but one of a user's, or a tokenizer.json whose added tokens lie past
    // the size it states, can give an id the model has no row for: refused here, named by its text
    private int[] checked(int[] ids, long text) {
        int vocab = tokenizer.vocabSize();
        int bad = TokenIds.firstOutside(ids, 0, ids.length, vocab);
        if (bad >= 0) {
            throw new TokenIdException(texts.name(), DataPosition.item("text", text), bad, ids[bad], vocab);
        }
        return ids;
    }

    @Override
    public void willNeed(long[] indices) {
        texts.willNeed(indices);
    }

    @Override
    public String name() {
        return texts.name() + " tokenized by " + tokenizer.name();
    }
}
