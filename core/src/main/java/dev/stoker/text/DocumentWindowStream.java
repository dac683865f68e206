package dev.stoker.text;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Pretraining windows from documents that arrive as a stream (text tokenized in the workers, W10):
 * each worker lays its own documents end to end, each followed by the end-of-text token, and cuts
 * windows of {@code seqLen + 1} tokens overlapping by one, as {@link DocumentWindowDataset} does
 * over documents it can reach by number. A worker's last tokens that do not fill a window are
 * dropped at the end of the epoch.
 *
 * <pre>{@code
 * var texts = JsonlStream.field(files, "text");
 * var windows = DocumentWindowStream.of(TokenizedStream.of(texts, tokenizer), 1024, eos);
 * DataLoader<TokenRun> loader = DataLoader.builder(windows).batchSize(16).numWorkers(4).build();
 * // batches: input, target: (16, 1024) i64
 * }</pre>
 *
 * <p>A resumed loader moves each worker's stream past the windows it delivered by counting the
 * documents' tokens, without building the windows (the texts are tokenized again: their lengths
 * are not known otherwise). A bad document (a {@link dev.stoker.data.DataFormatException} of the
 * documents' stream, or an id outside {@link #withVocabSize the vocabulary}) is dropped whole and
 * is one failed sample: {@code next()} throws it, and a loader that skips bad samples goes on with
 * the windows of the documents after it.
 */
public final class DocumentWindowStream implements FillableStreamingDataset<TokenRun> {
    private final StreamingDataset<int[]> documents;
    private final WindowFields fields;
    private final int eos;
    private final int vocabSize; // 0: not checked

    private DocumentWindowStream(StreamingDataset<int[]> documents, WindowFields fields, int eos, int vocabSize) {
        this.documents = Objects.requireNonNull(documents, "documents");
        this.fields = fields;
        if (eos < 0) {
            throw new IllegalArgumentException("the end-of-text token is an id, at least 0, not " + eos);
        }
        this.eos = eos;
        this.vocabSize = vocabSize;
        if (vocabSize > 0 && eos >= vocabSize) {
            throw new IllegalArgumentException("the end-of-text token " + eos + " is outside the vocabulary of "
                    + vocabSize + " ids");
        }
    }

    /** Windows of {@code seqLen} input tokens, documents ended by {@code eos}. */
    public static DocumentWindowStream of(StreamingDataset<int[]> documents, int seqLen, int eos) {
        return new DocumentWindowStream(documents, new WindowFields(seqLen, false, false), eos, 0);
    }

    /** This stream with {@code position_ids} and/or {@code document_ids} (see {@link DocumentWindowDataset}). */
    public DocumentWindowStream withBoundaries(boolean positionIds, boolean documentIds) {
        return new DocumentWindowStream(documents, new WindowFields(fields.seqLen(), positionIds, documentIds), eos,
                vocabSize);
    }

    /**
     * This stream checking every token id to be in {@code [0, vocabSize)}, the model's vocabulary,
     * as each document is read: one outside is refused with a {@link TokenIdException} naming the
     * documents, the worker's document it is in and the id, instead of reaching the model's
     * embedding. Not needed over a {@link TokenizedStream}, which checks its tokenizer's ids.
     *
     * @throws IllegalArgumentException for a size below 1 or one the end-of-text token is not inside
     */
    public DocumentWindowStream withVocabSize(int vocabSize) {
        return new DocumentWindowStream(documents, fields, eos, TokenIds.requireVocabSize(vocabSize));
    }

    @Override
    public SampleLayout layout() {
        return fields.layout();
    }

    @Override
    public void fill(TokenRun run, SampleSlot slot) {
        int seqLen = fields.seqLen();
        int[] t = run.tokens();
        MemorySegment input = slot.tensor(0).segment();
        MemorySegment target = slot.tensor(1).segment();
        for (int k = 0; k < seqLen; k++) {
            input.setAtIndex(ValueLayout.JAVA_LONG, k, t[k]);
            target.setAtIndex(ValueLayout.JAVA_LONG, k, t[k + 1]);
        }
        if (fields.positionIds() || fields.documentIds()) {
            int[] s = run.documentStarts();
            int count = 0;
            while (count < s.length && s[count] < seqLen) {
                count++;
            }
            fields.writeBoundaries(slot, s, count);
        }
    }

    @Override
    public SampleStream<TokenRun> open(WorkerContext context) {
        return new Runs(documents.open(context), context);
    }

    @Override
    public String name() {
        return "windows of " + fields.seqLen() + " over " + documents.name();
    }

    private final class Runs implements SampleStream<TokenRun> {
        private final SampleStream<int[]> in;
        private int[] buf = new int[Math.max(16, 2 * (fields.seqLen() + 1))];
        private int head;   // the next window starts here
        private int tail;   // tokens end here
        private int[] starts = new int[16]; // document starts in buf, ascending
        private int startHead;
        private int startTail;
        private final WorkerContext context;
        private long read; // documents of this worker's share read so far
        private DataFormatException pending; // a bad document met while filling a window: the next sample fails

        Runs(SampleStream<int[]> in, WorkerContext context) {
            this.in = in;
            this.context = context;
        }

        // reads documents until a window of seqLen + 1 tokens is there, or the documents end; a bad document
        // (a bad sample of the stream below, or an id outside the vocabulary) is held as the next sample's
        // failure, so that hasNext answers and next throws it, as a loader that skips bad samples needs
        private boolean fillWindow() {
            if (pending != null) {
                return true;
            }
            int need = fields.seqLen() + 1;
            while (tail - head < need) {
                if (!in.hasNext()) {
                    return false;
                }
                int[] doc;
                try {
                    doc = in.next();
                } catch (DataFormatException e) {
                    pending = e;
                    return true;
                }
                long number = read++;
                if (vocabSize > 0) {
                    pending = check(doc, number); // a bad document is dropped whole, none of it in a window
                    if (pending != null) {
                        return true;
                    }
                }
                append(doc);
            }
            return true;
        }

        private void append(int[] doc) {
            int n = doc.length + 1;
            if (tail + n > buf.length) { // move the live part to the front, grow if that is not enough
                int live = tail - head;
                int[] to = live + n > buf.length ? new int[Math.max(buf.length * 2, live + n)] : buf;
                System.arraycopy(buf, head, to, 0, live);
                for (int i = startHead; i < startTail; i++) {
                    starts[i] -= head;
                }
                buf = to;
                tail = live;
                head = 0;
            }
            if (startTail == starts.length) {
                int live = startTail - startHead;
                int[] to = live * 2 + 1 > starts.length ? new int[starts.length * 2] : starts;
                System.arraycopy(starts, startHead, to, 0, live);
                starts = to;
                startTail = live;
                startHead = 0;
            }
            starts[startTail++] = tail;
            System.arraycopy(doc, 0, buf, tail, doc.length);
            tail += doc.length;
            buf[tail++] = eos;
        }

        @Override
        public boolean hasNext() {
            return fillWindow();
        }

        @Override
        public TokenRun next() {
            if (!fillWindow()) {
                throw new NoSuchElementException("no window left in " + documents.name());
            }
            if (pending != null) {
                DataFormatException e = pending;
                pending = null;
                throw e;
            }
            int len = fields.seqLen() + 1;
            int[] tokens = Arrays.copyOfRange(buf, head, head + len);
            while (startHead < startTail && starts[startHead] <= head) {
                startHead++; // a document that started at or before the window's first token
            }
            int count = 0;
            while (startHead + count < startTail && starts[startHead + count] < head + len) {
                count++;
            }
            int[] inside = new int[count];
            for (int i = 0; i < count; i++) {
                inside[i] = starts[startHead + i] - head;
            }
            head += fields.seqLen();
            return new TokenRun(tokens, inside);
        }

        /**
         * Counts tokens instead of cutting windows: the documents are read, no window is built. A bad
         * document met on the way counts as one sample, as the {@code next()} that threw for it counted
         * for a loader that skips bad samples, so a resumed stream stands where the first run stood.
         */
        @Override
        public long skip(long n) {
            long done = 0;
            while (done < n && fillWindow()) {
                if (pending != null) {
                    pending = null;
                    done++;
                    continue;
                }
                long whole = Math.min(n - done, (tail - head - 1) / fields.seqLen());
                head += (int) (whole * fields.seqLen());
                done += whole;
                while (startHead < startTail && starts[startHead] <= head) {
                    startHead++;
                }
            }
            return done;
        }

        // the one compare per token of TokenIds; a stream numbers its documents per worker only
        private TokenIdException check(int[] doc, long document) {
            int bad = TokenIds.firstOutside(doc, 0, doc.length, vocabSize);
            if (bad < 0) {
                return null;
            }
            String share = (context.worldSize() > 1 ? "rank " + context.rank() + " " : "") + "worker "
                    + context.workerId() + "'s document";
            return new TokenIdException(documents.name(), DataPosition.item(share, document), bad, doc[bad], vocabSize);
        }

        @Override
        public void close() {
            in.close();
        }
    }
}
