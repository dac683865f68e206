package dev.stoker.formats.mds;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.tokens.TokenWindow;
import dev.stoker.formats.tokens.Widening;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Next-token training windows from an MDS column of token ids: each sample's
 * {@code ndarray:uint16:L+1} (or {@code uint32}) value becomes an int64 {@code input} of its
 * first {@code L} tokens and a {@code target} of its last {@code L}, as a language model's loader
 * shifts them. Made by {@link MdsDataset#tokenWindows}; the fill path widens the tokens straight
 * from the memory map into the batch rows, with no object per sample.
 *
 * <pre>{@code
 * try (MdsDataset mds = MdsDataset.open(Path.of("/data/tokens-mds"))) {   // column tokens: ndarray:uint16:2049
 *     DataLoader<TokenWindow> loader = DataLoader.builder(mds.tokenWindows("tokens")).batchSize(64).build();
 *     // batches: {input: (64, 2048) int64, target: (64, 2048) int64}
 * }
 * }</pre>
 */
public final class MdsTokenWindows implements FillableDataset<TokenWindow> {
    private final MdsDataset mds;
    private final String name;
    private final int column;
    private final MdsNumber number;
    private final int seqLen;
    private final SampleLayout layout;

    MdsTokenWindows(MdsDataset mds, String name) {
        this.mds = Objects.requireNonNull(mds, "mds");
        MdsColumn c = mds.column(name);
        MdsEncoding e = c.encoding();
        if (e.kind() != MdsEncoding.Kind.NDARRAY || e.shape() == null || e.shape().length != 1
                || (e.number() != MdsNumber.U16 && e.number() != MdsNumber.U32) || e.shape()[0] < 2) {
            throw new IllegalArgumentException("column '" + name + "' is " + e.text() + ": token windows read a"
                    + " column of ndarray:uint16:N or ndarray:uint32:N (N >= 2 tokens, the window and the one"
                    + " after it); read other columns with MdsDataset.tensors or get");
        }
        this.name = name;
        this.column = mds.position(name);
        this.number = e.number();
        this.seqLen = Math.toIntExact(e.shape()[0] - 1);
        Shape row = Shape.of(seqLen);
        this.layout = SampleLayout.of(new SampleLayout.Field("input", DType.I64, row),
                new SampleLayout.Field("target", DType.I64, row));
    }

    @Override
    public long size() {
        return mds.size();
    }

    /** Tokens in the input (and in the target): the column's length less one. */
    public int seqLen() {
        return seqLen;
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    /** Window {@code index} as two int64 tensors over one heap array (the target is the input shifted by one). */
    @Override
    public TokenWindow get(long index) {
        MemorySegment tokens = tokens(index);
        long[] values = new long[seqLen + 1];
        try {
            if (number == MdsNumber.U16) {
                Widening.u16ToLongs(tokens, 0, values, seqLen + 1);
            } else {
                Widening.u32ToLongs(tokens, 0, values, seqLen + 1);
            }
            MapFaults.deliverPending();
        } catch (InternalError e) { // the shard was cut short under its map: name it
            throw mds.changed(e, index);
        }
        return TokenWindow.of(values);
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        MemorySegment tokens = tokens(index);
        try {
            if (number == MdsNumber.U16) {
                Widening.u16ToI64(tokens, 0, slot.tensor(0).segment(), 0, seqLen);
                Widening.u16ToI64(tokens, 2, slot.tensor(1).segment(), 0, seqLen);
            } else {
                Widening.u32ToI64(tokens, 0, slot.tensor(0).segment(), 0, seqLen);
                Widening.u32ToI64(tokens, 4, slot.tensor(1).segment(), 0, seqLen);
            }
            MapFaults.deliverPending();
        } catch (InternalError e) {
            throw mds.changed(e, index);
        }
    }

    private MemorySegment tokens(long index) {
        try {
            // a fault deferred here surfaces at the deliverPending of the caller's read, named alike
            return mds.columnBytes(index, column, (long) (seqLen + 1) * number.byteSize());
        } catch (InternalError e) { // its offsets are read from the map
            throw mds.changed(e, index);
        }
    }

    @Override
    public void willNeed(long[] indices) {
        mds.willNeed(indices);
    }

    @Override
    public String name() {
        return "token windows of column " + name + " of " + mds.name();
    }
}
