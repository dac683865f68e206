package dev.stoker.formats.megatron;

import dev.stoker.data.DataPosition;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.text.TokenIdException;
import dev.stoker.text.TokenIds;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The sequences of a {@link MegatronDataset} as rows of one length, written straight into the
 * batch (the fill path: no sample object, no collate copy): sample {@code i} is sequence
 * {@code i}'s first {@code L} tokens, padded with a pad token to {@code L}, and its length. A
 * sequence longer than {@code L} is cut at {@code L}, as {@code max_seq_length} cuts.
 *
 * <pre>{@code
 * try (MegatronDataset seqs = MegatronDataset.open(Path.of("data/sft_text_document"))) {
 *     PaddedSequences rows = seqs.padded(2048, 0);
 *     DataLoader<PaddedSequence> loader = DataLoader.builder(rows).batchSize(16).build();
 *     // each batch: {"tokens": (16, 2048) i64, "length": (16) i64}
 * }
 * }</pre>
 */
public final class PaddedSequences implements FillableDataset<PaddedSequence> {
    private final MegatronDataset sequences;
    private final int rowLength;
    private final long pad;
    private final int vocabSize; // 0: not checked
    private final SampleLayout layout;

    PaddedSequences(MegatronDataset sequences, int rowLength, long pad) {
        this(sequences, rowLength, pad, 0);
    }

    private PaddedSequences(MegatronDataset sequences, int rowLength, long pad, int vocabSize) {
        if (rowLength < 1) {
            throw new IllegalArgumentException("a row holds at least 1 token, not " + rowLength);
        }
        this.sequences = sequences;
        this.rowLength = rowLength;
        this.pad = pad;
        this.vocabSize = vocabSize;
        this.layout = SampleLayout.of(new SampleLayout.Field("tokens", DType.I64, Shape.of(rowLength)),
                new SampleLayout.Field("length", DType.I64, Shape.scalar()));
    }

    /**
     * These rows checking every token id to be in {@code [0, vocabSize)}, the model's vocabulary,
     * as it is written: one outside is refused with a {@link TokenIdException} naming the
     * {@code .bin}, the sequence and the id, instead of reaching the model's embedding (a
     * {@code .bin} of another tokenizer, or of a wider dtype than its vocabulary needs). The pad
     * token is not checked: it is masked by the row's length.
     */
    public PaddedSequences withVocabSize(int vocabSize) {
        return new PaddedSequences(sequences, rowLength, pad, TokenIds.requireVocabSize(vocabSize));
    }

    @Override
    public long size() {
        return sequences.size();
    }

    /** The row length L. */
    public int rowLength() {
        return rowLength;
    }

    @Override
    public PaddedSequence get(long index) {
        long[] tokens = sequences.tokens(index); // arrays and batch memory take separate loops (see TokenCopy)
        int n = Math.min(tokens.length, rowLength);
        long[] row = java.util.Arrays.copyOf(tokens, rowLength);
        if (vocabSize > 0) {
            check(index, MemorySegment.ofArray(row), 0, n);
        }
        java.util.Arrays.fill(row, n, rowLength, pad);
        return new PaddedSequence(new Tensor(MemorySegment.ofArray(row), DType.I64, Shape.of(rowLength)), n);
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        int n = write(index, slot.tensor(0).segment(), 0);
        slot.tensor(1).setLong(0, n);
    }

    /** Writes row {@code index} at byte {@code at} of {@code dst}; returns its real tokens. */
    private int write(long index, MemorySegment dst, long at) {
        int n = Math.min(sequences.sequenceLength(index), rowLength);
        sequences.widen(index, 0, n, dst, at);
        if (vocabSize > 0) {
            check(index, dst, at, n);
        }
        for (int k = n; k < rowLength; k++) {
            dst.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8L * k, pad);
        }
        return n;
    }

    // the one compare per token of TokenIds, over the ids just written
    private void check(long index, MemorySegment ids, long at, int n) {
        int bad = TokenIds.firstOutside(ids, at, n, vocabSize);
        if (bad >= 0) {
            throw new TokenIdException(sequences.binName(), DataPosition.item("sequence", index), bad,
                    ids.get(ValueLayout.JAVA_LONG_UNALIGNED, at + 8L * bad), vocabSize);
        }
    }

    @Override
    public String name() {
        return "padded " + sequences.name();
    }

    @Override
    public String toString() {
        return "PaddedSequences(" + sequences + ", rows of " + rowLength + ")";
    }
}
