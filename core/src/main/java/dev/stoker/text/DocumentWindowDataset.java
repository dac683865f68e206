package dev.stoker.text;

import dev.stoker.data.DataPosition;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * Pretraining windows across documents, as Megatron-LM's {@code GPTDataset} cuts them: the
 * documents are laid end to end (each followed by an end-of-text token, if {@link Builder#eos}
 * is set) and cut into windows of {@code seqLen + 1} tokens that overlap by one: window {@code i}
 * is tokens {@code [i * seqLen, (i + 1) * seqLen + 1)}, {@code input} its first {@code seqLen}
 * and {@code target} its last. A window runs across as many documents as it covers.
 *
 * <p>The index is built once, in O(documents): the token offset where each document starts. A
 * window finds its first document by binary search, so windows are random-access: the loader
 * shuffles, splits across ranks and resumes them as the samples of any map-style dataset.
 * Megatron instead stores a (document, offset) pair per sample and shuffles documents per epoch;
 * here the documents keep their order and the sampler shuffles the windows.
 *
 * <pre>{@code
 * try (MegatronDataset seqs = MegatronDataset.open(Path.of("data/wiki_text_document"))) {
 *     DocumentWindowDataset windows = DocumentWindowDataset.builder(new MegatronDocuments(seqs), 2048)
 *             .positionIds(true).build();      // the .bin already ends documents with EOD
 *     DataLoader<Map<String, Tensor>> loader = DataLoader.builder(windows).batchSize(8)
 *             .shuffle(true).seed(42).numWorkers(4).build();
 *     // batches: input, target, position_ids: (8, 2048) i64
 * }
 * }</pre>
 *
 * <p>Windows are written straight into the batch ({@link FillableDataset}); a token is read
 * twice (into {@code input} and {@code target}), nothing is allocated per window.
 */
public final class DocumentWindowDataset implements FillableDataset<Map<String, Tensor>> {
    private final TokenDocuments documents;
    private final WindowFields fields;
    private final int eos; // -1: none appended
    private final int vocabSize; // 0: not checked
    private final long[] starts; // token offset of each document; starts[n] = the total
    private final long windows;
    private final SampleLayout layout;

    private DocumentWindowDataset(Builder b) {
        this.documents = b.documents;
        this.fields = new WindowFields(b.seqLen, b.positionIds, b.documentIds);
        this.eos = b.eos;
        this.vocabSize = b.vocabSize;
        if (vocabSize > 0 && eos >= vocabSize) {
            throw new IllegalArgumentException("the end-of-text token " + eos + " is outside the vocabulary of "
                    + vocabSize + " ids");
        }
        long n = documents.documentCount();
        if (n < 0 || n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(documents.name() + ": " + n + " documents, more than one index holds");
        }
        this.starts = new long[(int) n + 1];
        int extra = eos >= 0 ? 1 : 0;
        for (int d = 0; d < n; d++) {
            int length = documents.documentLength(d);
            if (length < 0) {
                throw new IllegalArgumentException(documents.name() + ": document " + d + " has length " + length);
            }
            starts[d + 1] = starts[d] + length + extra;
        }
        long total = starts[(int) n];
        this.windows = total <= 1 ? 0 : (total - 1) / b.seqLen;
        this.layout = fields.layout();
    }

    /** Windows of {@code seqLen} input tokens over {@code documents}. */
    public static Builder builder(TokenDocuments documents, int seqLen) {
        return new Builder(documents, seqLen);
    }

    /** The settings of a {@link DocumentWindowDataset}. */
    public static final class Builder {
        private final TokenDocuments documents;
        private final int seqLen;
        private int eos = -1;
        private boolean positionIds;
        private boolean documentIds;
        private int vocabSize;

        private Builder(TokenDocuments documents, int seqLen) {
            this.documents = Objects.requireNonNull(documents, "documents");
            this.seqLen = seqLen;
        }

        /**
         * Appends token {@code id} after every document (Megatron's {@code --append-eod} done at
         * read time); leave it unset when the documents already end with one.
         */
        public Builder eos(int id) {
            if (id < 0) {
                throw new IllegalArgumentException("the end-of-text token is an id, at least 0, not " + id);
            }
            this.eos = id;
            return this;
        }

        /** Adds {@code position_ids}, restarting at 0 at each document (default off). */
        public Builder positionIds(boolean on) {
            this.positionIds = on;
            return this;
        }

        /** Adds {@code document_ids}, numbering the documents of each window from 0 (default off). */
        public Builder documentIds(boolean on) {
            this.documentIds = on;
            return this;
        }

        /**
         * The model's vocabulary size: every token id is checked to be in {@code [0, vocabSize)}
         * as it is written into the batch, and one outside is refused with a
         * {@link TokenIdException} naming the documents' file, the document and the id, instead
         * of reaching the model's embedding (where a GPU would fail on it far from its cause).
         * Default: not checked.
         */
        public Builder vocabSize(int vocabSize) {
            this.vocabSize = TokenIds.requireVocabSize(vocabSize);
            return this;
        }

        /**
         * Builds the index: one pass over the documents' lengths.
         *
         * @throws IllegalArgumentException for a window length below 1, a negative document length or an
         *     end-of-text token outside the vocabulary
         */
        public DocumentWindowDataset build() {
            return new DocumentWindowDataset(this);
        }
    }

    @Override
    public long size() {
        return windows;
    }

    /** Input tokens per window. */
    public int seqLen() {
        return fields.seqLen();
    }

    /** Tokens laid end to end, end-of-text tokens included. */
    public long totalTokens() {
        return starts[starts.length - 1];
    }

    /** The document that token {@code position} of the concatenation belongs to (its end-of-text token included). */
    public long documentAt(long position) {
        int i = Arrays.binarySearch(starts, position);
        if (i < 0) {
            return -i - 2;
        }
        while (i + 1 < starts.length && starts[i + 1] == position) {
            i++; // empty documents start where the next one does: the token is the last one's
        }
        return i;
    }

    @Override
    public Map<String, Tensor> get(long index) {
        return fields.heapSample(slot -> fill(index, slot));
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        if (index < 0 || index >= windows) {
            throw new IndexOutOfBoundsException(documents.name() + ": window " + index + " is outside [0, " + windows + ")");
        }
        int seqLen = fields.seqLen();
        long from = index * seqLen;
        copy(from, seqLen, slot.tensor(0).segment(), null);
        if (fields.positionIds() || fields.documentIds()) {
            int[] docStarts = new int[seqLen];
            int count = copy(from + 1, seqLen, slot.tensor(1).segment(), docStarts);
            // the target is the input moved by one: a document that starts at target k starts at input k + 1;
            // the input's own first token needs no entry (positions and document numbers start there anyway)
            int kept = 0;
            for (int c = 0; c < count; c++) {
                if (docStarts[c] + 1 < seqLen) {
                    docStarts[kept++] = docStarts[c] + 1;
                }
            }
            fields.writeBoundaries(slot, docStarts, kept);
        } else {
            copy(from + 1, seqLen, slot.tensor(1).segment(), null);
        }
    }

    /**
     * Writes tokens {@code [from, from + count)} of the concatenation into {@code dst} as int64;
     * where a document starts among them, its position in {@code dst} goes into
     * {@code docStarts} (if given). Returns how many went there.
     */
    private int copy(long from, int count, MemorySegment dst, int[] docStarts) {
        long d = documentAt(from);
        long offset = from - starts[(int) d];
        int written = 0;
        int found = 0;
        if (docStarts != null && offset == 0) {
            docStarts[found++] = 0;
        }
        while (written < count) {
            int length = documents.documentLength(d);
            if (offset < length) {
                int n = (int) Math.min(length - offset, count - written);
                documents.widen(d, (int) offset, n, dst, 8L * written);
                if (vocabSize > 0) {
                    checkIds(d, (int) offset, n, dst, 8L * written);
                }
                written += n;
                offset += n;
            }
            if (written < count && offset == length && eos >= 0) {
                dst.setAtIndex(ValueLayout.JAVA_LONG, written++, eos);
                offset++;
            }
            if (written < count && offset >= length + (eos >= 0 ? 1 : 0)) {
                d++;
                offset = 0;
                if (docStarts != null && documents.documentLength(d) + (eos >= 0 ? 1 : 0) > 0) {
                    docStarts[found++] = written;
                }
            }
        }
        return found;
    }

    // the one compare per token of TokenIds, over the ids just widened into the batch
    private void checkIds(long document, int from, int count, MemorySegment dst, long dstOffset) {
        int bad = TokenIds.firstOutside(dst, dstOffset, count, vocabSize);
        if (bad >= 0) {
            long id = dst.get(ValueLayout.JAVA_LONG_UNALIGNED, dstOffset + 8L * bad);
            throw new TokenIdException(documents.source(), DataPosition.item("document", document), from + bad, id,
                    vocabSize);
        }
    }

    @Override
    public String name() {
        return "windows of " + fields.seqLen() + " over " + documents.name();
    }

    @Override
    public String toString() {
        return "DocumentWindowDataset(" + documents.name() + ", " + windows + " windows of " + fields.seqLen() + ")";
    }
}
