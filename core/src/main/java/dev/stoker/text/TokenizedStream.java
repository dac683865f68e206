package dev.stoker.text;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Texts tokenized in the workers: each worker reads its share of a stream of texts (a
 * {@code JsonlStream}'s field, a Parquet text column) and hands out each text's token ids,
 * encoding {@link #withBatchTexts n} texts at a time with one {@link Tokenizer#encodeBatch} call.
 *
 * <pre>{@code
 * StreamingDataset<int[]> docs = TokenizedStream.of(JsonlStream.field(files, "text"), tokenizer);
 * DataLoader<int[]> loader = DataLoader.builder(docs).batchSize(32).numWorkers(4)
 *         .collate(PadCollate.of()).build();
 * }</pre>
 *
 * <p>One text gives one sample, so a resumed loader moves the text stream past what was
 * delivered without tokenizing it ({@link SampleStream#skip}). An empty text gives an empty
 * array.
 */
public final class TokenizedStream implements StreamingDataset<int[]> {
    /** Texts per {@link Tokenizer#encodeBatch} call, by default. */
    public static final int DEFAULT_BATCH_TEXTS = 64;

    private final StreamingDataset<String> texts;
    private final Tokenizer tokenizer;
    private final int batchTexts;

    private TokenizedStream(StreamingDataset<String> texts, Tokenizer tokenizer, int batchTexts) {
        this.texts = Objects.requireNonNull(texts, "texts");
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        if (batchTexts < 1) {
            throw new IllegalArgumentException("texts per encode call must be at least 1, not " + batchTexts);
        }
        this.batchTexts = batchTexts;
    }

    /** The token ids of every text of {@code texts}, encoded by {@code tokenizer}. */
    public static TokenizedStream of(StreamingDataset<String> texts, Tokenizer tokenizer) {
        return new TokenizedStream(texts, tokenizer, DEFAULT_BATCH_TEXTS);
    }

    /** This stream encoding {@code n} texts per call (more: fewer calls; fewer: less read ahead). */
    public TokenizedStream withBatchTexts(int n) {
        return new TokenizedStream(texts, tokenizer, n);
    }

    /** The tokenizer. */
    public Tokenizer tokenizer() {
        return tokenizer;
    }

    @Override
    public SampleStream<int[]> open(WorkerContext context) {
        return new Ids(texts.open(context));
    }

    @Override
    public String name() {
        return texts.name() + " tokenized by " + tokenizer.name();
    }

    private final class Ids implements SampleStream<int[]> {
        private final SampleStream<String> in;
        private final ArrayDeque<int[]> ready = new ArrayDeque<>();

        Ids(SampleStream<String> in) {
            this.in = in;
        }

        @Override
        public boolean hasNext() {
            return !ready.isEmpty() || in.hasNext();
        }

        @Override
        public int[] next() {
            if (ready.isEmpty()) {
                List<String> chunk = new ArrayList<>(batchTexts);
                while (chunk.size() < batchTexts && in.hasNext()) {
                    chunk.add(in.next());
                }
                if (chunk.isEmpty()) {
                    throw new java.util.NoSuchElementException("the texts of " + texts.name() + " are used up");
                }
                List<int[]> ids = tokenizer.encodeBatch(chunk);
                if (ids.size() != chunk.size()) {
                    throw new IllegalStateException(tokenizer.name() + " gave " + ids.size() + " encodings for "
                            + chunk.size() + " texts");
                }
                ready.addAll(ids);
            }
            return ready.poll();
        }

        /** Drops what is encoded, then moves the texts on without tokenizing them. */
        @Override
        public long skip(long n) {
            long done = 0;
            while (done < n && !ready.isEmpty()) {
                ready.poll();
                done++;
            }
            return done + in.skip(n - done);
        }

        @Override
        public void close() {
            in.close();
        }
    }
}
