package dev.stoker.formats.tokens;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Fixed-length training windows of a {@link TokenFile}: sample {@code i} is the
 * {@link TokenWindow} that starts at {@code offsets[i]}, input and target shifted by one, as int64
 * (workload W2, and how GPT-style models are trained from a token file).
 *
 * <p>Under the loader's default collate the windows are written straight into the batch
 * ({@link FillableDataset}): each token is read from the map and widened to int64 once per
 * tensor, with no sample object and no collate copy. {@link #get} gives the same values as a
 * record of two tensors, for code that wants samples.
 *
 * <pre>{@code
 * try (TokenFile tokens = TokenFile.open(Path.of("train.bin"), TokenType.U16)) {
 *     var windows = TokenWindowDataset.random(tokens, 1024, 100_000, 42);
 *     DataLoader<TokenWindow> loader = DataLoader.builder(windows).batchSize(64).build();
 *     for (Batch b : loader) {
 *         Map<?, ?> m = (Map<?, ?>) b.data();   // input, target: (64, 1024) i64
 *         ...
 *         b.close();
 *     }
 * }
 * }</pre>
 */
public final class TokenWindowDataset implements FillableDataset<TokenWindow> {
    private final TokenFile tokens;
    private final int seqLen;
    private final long[] offsets;
    private final SampleLayout layout;

    private TokenWindowDataset(TokenFile tokens, int seqLen, long[] offsets) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        WindowOffsets.checkSeqLen(seqLen);
        this.seqLen = seqLen;
        this.offsets = offsets.clone();
        long maxStart = tokens.size() - seqLen - 1;
        for (int i = 0; i < this.offsets.length; i++) {
            long o = this.offsets[i];
            if (o < 0 || o > maxStart) {
                throw new IllegalArgumentException(tokens.path() + ": window " + i + " starts at token " + o
                        + ", but a window of " + seqLen + " + 1 tokens must start in [0, " + maxStart + "] in a file of "
                        + tokens.size() + " tokens");
            }
        }
        Shape row = Shape.of(seqLen);
        this.layout = SampleLayout.of(new SampleLayout.Field("input", DType.I64, row),
                new SampleLayout.Field("target", DType.I64, row));
    }

    /**
     * Windows starting at the given token offsets, one sample per offset (W2's
     * {@code rng.integers(0, N - 2049, size=12800)}).
     *
     * @throws IllegalArgumentException naming the first offset whose window does not fit the file
     */
    public static TokenWindowDataset atOffsets(TokenFile tokens, int seqLen, long[] offsets) {
        return new TokenWindowDataset(tokens, seqLen, offsets);
    }

    /** Windows tiling the file without overlap; see {@link WindowOffsets#nonOverlapping}. */
    public static TokenWindowDataset nonOverlapping(TokenFile tokens, int seqLen) {
        return new TokenWindowDataset(tokens, seqLen, WindowOffsets.nonOverlapping(tokens.size(), seqLen));
    }

    /**
     * {@code count} windows at seeded uniform offsets; see {@link WindowOffsets#random}.
     *
     * @throws IllegalArgumentException naming the file when it is shorter than one window
     */
    public static TokenWindowDataset random(TokenFile tokens, int seqLen, int count, long seed) {
        long[] offsets;
        try {
            offsets = WindowOffsets.random(tokens.size(), seqLen, count, seed);
        } catch (IllegalArgumentException e) { // WindowOffsets knows counts, not files: say which file
            throw new IllegalArgumentException(tokens.path() + ": " + e.getMessage(), e);
        }
        return new TokenWindowDataset(tokens, seqLen, offsets);
    }

    @Override
    public long size() {
        return offsets.length;
    }

    /** The window's length: tokens in the input (and in the target). */
    public int seqLen() {
        return seqLen;
    }

    /** Where window {@code index} starts, in tokens. */
    public long offset(long index) {
        checkIndex(index);
        return offsets[(int) index];
    }

    /** Window {@code index} as a record of two int64 tensors over one heap array (target is input shifted by one). */
    @Override
    public TokenWindow get(long index) {
        long o = offset(index);
        long[] values = new long[seqLen + 1];
        try {
            tokens.widen(o, values);
            MapFaults.deliverPending();
        } catch (InternalError e) { // the file was truncated under its map: name it (free until it happens)
            throw tokens.changed(e, "window " + index + " (tokens from " + o + ")");
        }
        return TokenWindow.of(values);
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        long o = offset(index);
        try {
            tokens.widen(o, slot.tensor(0).segment(), 0, seqLen);
            tokens.widen(o + 1, slot.tensor(1).segment(), 0, seqLen);
            MapFaults.deliverPending();
        } catch (InternalError e) {
            throw tokens.changed(e, "window " + index + " (tokens from " + o + ")");
        }
    }

    /** The whole batch in one pass over the two batch tensors, with no slot objects. */
    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        for (long index : indices) {
            checkIndex(index);
        }
        MemorySegment input = slots.tensor(0).segment();
        MemorySegment target = slots.tensor(1).segment();
        long rowBytes = (long) seqLen * Long.BYTES;
        int j = 0;
        try {
            for (; j < indices.length; j++) {
                long o = offsets[(int) indices[j]];
                tokens.widen(o, input, j * rowBytes, seqLen);
                tokens.widen(o + 1, target, j * rowBytes, seqLen);
            }
            MapFaults.deliverPending(); // once per batch: a fault compiled code deferred names the batch's windows
        } catch (InternalError e) {
            long window = j < indices.length ? indices[j] : firstWindowPastTheEnd(indices);
            throw tokens.changed(e, window >= 0 ? "window " + window + " (tokens from " + offsets[(int) window] + ")"
                    : "one of the windows " + java.util.Arrays.toString(indices));
        }
    }

    /**
     * The first of these windows (its targets included) whose tokens lie past the file's end now,
     * or -1: a fault compiled code deferred to the batch's end does not say which copy met it.
     */
    private long firstWindowPastTheEnd(long[] indices) {
        long size = tokens.sizeNow();
        for (long index : indices) {
            if (size >= 0 && (offsets[(int) index] + seqLen + 1) * tokens.type().bytes() > size) {
                return index;
            }
        }
        return -1;
    }

    private void checkIndex(long index) {
        if (index < 0 || index >= offsets.length) {
            throw new IndexOutOfBoundsException(tokens.path() + ": window " + index + " is outside [0, "
                    + offsets.length + ")");
        }
    }

    /** The token file the windows are read from. */
    public TokenFile tokens() {
        return tokens;
    }

    @Override
    public String name() {
        return "token windows of " + tokens.path();
    }

    @Override
    public String toString() {
        return "TokenWindowDataset(" + tokens.path() + ", " + offsets.length + " windows of " + seqLen + ")";
    }
}
