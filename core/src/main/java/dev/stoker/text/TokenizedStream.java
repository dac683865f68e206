package dev.stoker.text;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
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
 * array. An id outside {@code [0, tokenizer.vocabSize())} is refused ({@link TokenIdException},
 * naming the worker's text it came from), not passed on to the model's embedding. A bad text of
 * the stream below (a {@link DataFormatException}: a JSONL line that is not JSON) fails in its
 * place, after the texts before it, and counts as one sample, as a loader that skips bad samples
 * and its resume expect.
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
        return new Ids(texts.open(context), context);
    }

    @Override
    public String name() {
        return texts.name() + " tokenized by " + tokenizer.name();
    }

    private final class Ids implements SampleStream<int[]> {
        private final SampleStream<String> in;
        private final ArrayDeque<Object> ready = new ArrayDeque<>(); // ids, or a bad text's DataFormatException

        private final WorkerContext context;
        private long read; // texts of this worker's share handed out or skipped so far

        Ids(SampleStream<String> in, WorkerContext context) {
            this.in = in;
            this.context = context;
        }

        @Override
        public boolean hasNext() {
            return !ready.isEmpty() || in.hasNext();
        }

        @Override
        public int[] next() {
            if (ready.isEmpty()) {
                List<String> chunk = new ArrayList<>(batchTexts);
                DataFormatException bad = null; // a bad text (a JSONL line that is not JSON) ends the chunk
                while (chunk.size() < batchTexts && bad == null && in.hasNext()) {
                    try {
                        chunk.add(in.next());
                    } catch (DataFormatException e) {
                        bad = e;
                    }
                }
                if (chunk.isEmpty() && bad == null) {
                    throw new java.util.NoSuchElementException("the texts of " + texts.name() + " are used up");
                }
                if (!chunk.isEmpty()) {
                    List<int[]> ids = tokenizer.encodeBatch(chunk);
                    if (ids.size() != chunk.size()) {
                        throw new IllegalStateException(tokenizer.name() + " gave " + ids.size() + " encodings for "
                                + chunk.size() + " texts");
                    }
                    ready.addAll(ids);
                }
                if (bad != null) {
                    ready.add(bad); // after the texts before it, in its place
                }
            }
            Object next = ready.poll();
            long text = read++;
            if (next instanceof DataFormatException e) {
                throw e;
            }
            return check((int[]) next, text); // checked as handed out: the texts before a bad one still come
        }

        /** Drops what is encoded, then moves the texts on without tokenizing them. */
        @Override
        public long skip(long n) {
            long done = 0;
            while (done < n && !ready.isEmpty()) {
                ready.poll();
                read++;
                done++;
            }
            long skipped = in.skip(n - done);
            read += skipped;
            return done + skipped;
        }

        // the one compare per token of TokenIds; a stream has no global numbering of its texts, so the message
        // names the worker's share and the text's place in it
        private int[] check(int[] ids, long text) {
            int vocab = tokenizer.vocabSize();
            int bad = TokenIds.firstOutside(ids, 0, ids.length, vocab);
            if (bad >= 0) {
                String share = (context.worldSize() > 1 ? "rank " + context.rank() + " " : "") + "worker "
                        + context.workerId() + "'s text";
                throw new TokenIdException(texts.name(), DataPosition.item(share, text), bad, ids[bad], vocab);
            }
            return ids;
        }

        @Override
        public void close() {
            in.close();
        }
    }
}
