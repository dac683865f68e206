package dev.stoker.packing;

import dev.stoker.data.DataPosition;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import dev.stoker.random.Seeds;
import dev.stoker.sampler.FeistelPermutation;
import dev.stoker.text.TokenIdException;
import dev.stoker.text.TokenIds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Fine-tuning examples packed whole into rows of {@code maxLength} tokens: a map-style dataset of
 * {@link PackedRow}s over a dataset of token sequences, so that rows shuffle, resume and split across
 * ranks like any other samples.
 *
 * <p>The examples are taken in windows of {@code windowSize} from a seeded shuffle of
 * (seed, epoch), and each window is packed by first-fit-decreasing ({@link FirstFitDecreasing}).
 * A window's rows are a pure function of (lengths, settings, seed, epoch, window index), so row
 * {@code i} is computed on demand from its window alone (nothing per row is stored; a window's
 * plan is O(w log w) for w examples, and the plans of the last 64 windows read are kept) and every
 * worker and every rank agrees on it. The number of
 * rows, known at construction (each window is planned once from the lengths alone, O(n log w)),
 * depends on the packing epoch: to pack afresh each epoch build a new dataset with
 * {@link Builder#epoch}; by default the packing is fixed, as TRL packs a dataset once, and the
 * loader's shuffle moves the rows around each epoch.
 *
 * <p>Choices, and whom they follow:
 * <ul>
 *   <li>labels are unshifted and carry the ignore index (default -100) on each segment's first
 *       token, as Hugging Face's {@code DataCollatorWithFlattening} does: once the model shifts,
 *       the last token of one example is never trained to predict the first of the next. With
 *       {@code promptLengths}, prompt tokens are ignored too (TRL's completion-only loss);
 *   <li>position ids restart at 0 for each example, as {@code DataCollatorWithFlattening} and
 *       Megatron's {@code reset_position_ids} make them;
 *   <li>rows are padded to {@code maxLength} (a fixed shape for compiled kernels) with an
 *       attention mask, and {@code cu_seqlens} covers the padding as a last segment, as NeMo's
 *       packed sequences do;
 *   <li>an example longer than a row is truncated by default (TRL's {@code bfd} strategy), or
 *       split ({@link Overlong#SPLIT}); an empty example is left out.
 * </ul>
 *
 * <pre>{@code
 * Dataset<int[]> examples = ...;                 // token ids of each example
 * int[] lengths = ...;                           // their lengths, known up front (an index, a pass)
 * PackedDataset rows = PackedDataset.builder(examples, lengths, 2048).seed(42).build();
 * rows.efficiency();                             // real tokens / row tokens, e.g. 0.99
 * DataLoader<PackedRow> loader = DataLoader.builder(rows).batchSize(8).shuffle(true).seed(42)
 *         .collate(new PackedCollate()).numWorkers(4).build();
 * }</pre>
 */
public final class PackedDataset implements Dataset<PackedRow> {
    private static final long PACKING_STREAM = 0x7061636BL; // "pack": a key apart from the loader's shuffle
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int CACHED_WINDOWS = 64; // plans kept, window w in slot w % 64: a few MB at most

    private final Dataset<int[]> examples;
    private final int[] lengths;
    private final int[] promptLengths; // or null
    private final int maxLength;
    private final int ignoreIndex;
    private final int padTokenId;
    private final boolean maskBoundaries;
    private final int vocabSize; // 0: not checked
    private final WindowPlan plan;
    private final long[] firstRow; // window w holds rows [firstRow[w], firstRow[w + 1])
    private final long realTokens;
    private final String description;
    private final AtomicReferenceArray<PlannedWindow> planned = new AtomicReferenceArray<>(CACHED_WINDOWS);
    /** Each filling thread's row of the four fields, {@code 4 * maxLength} values (see {@link #fill}). */
    private final ThreadLocal<long[]> rowScratch;

    private record PlannedWindow(int window, Segment[][] rows) {
    }

    private PackedDataset(Builder b) {
        if (b.maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be positive, not " + b.maxLength);
        }
        if (b.windowSize < 1) {
            throw new IllegalArgumentException("windowSize must be positive, not " + b.windowSize);
        }
        if (b.lengths.length != b.examples.size()) {
            throw new IllegalArgumentException(b.lengths.length + " lengths for the " + b.examples.size()
                    + " examples of " + b.examples.name());
        }
        if (b.promptLengths != null && b.promptLengths.length != b.lengths.length) {
            throw new IllegalArgumentException(b.promptLengths.length + " prompt lengths for " + b.lengths.length
                    + " examples");
        }
        for (int i = 0; i < b.lengths.length; i++) {
            if (b.lengths[i] < 0) {
                throw new IllegalArgumentException("length " + b.lengths[i] + " of example " + i + " is negative");
            }
        }
        this.examples = b.examples;
        this.lengths = b.lengths.clone();
        this.promptLengths = b.promptLengths == null ? null : b.promptLengths.clone();
        this.maxLength = b.maxLength;
        this.rowScratch = ThreadLocal.withInitial(() -> new long[Math.multiplyExact(4, b.maxLength)]);
        this.ignoreIndex = b.ignoreIndex;
        this.padTokenId = b.padTokenId;
        this.maskBoundaries = b.maskBoundaries;
        this.vocabSize = b.vocabSize;
        if (vocabSize > 0 && (padTokenId < 0 || padTokenId >= vocabSize)) {
            throw new IllegalArgumentException("the pad token " + padTokenId + " is outside the vocabulary of "
                    + vocabSize + " ids");
        }
        FeistelPermutation order = b.shuffle && lengths.length > 0
                ? new FeistelPermutation(lengths.length, Seeds.mix(b.seed, b.epoch, PACKING_STREAM)) : null;
        this.plan = new WindowPlan(lengths, maxLength, b.windowSize, order, b.overlong, b.pack);
        int windows = plan.windows();
        this.firstRow = new long[windows + 1];
        long tokens = 0;
        for (int w = 0; w < windows; w++) {
            Segment[][] rows = plan.rows(w);
            firstRow[w + 1] = firstRow[w] + rows.length;
            for (Segment[] row : rows) {
                for (Segment s : row) {
                    tokens += s.length();
                }
            }
        }
        this.realTokens = tokens;
        this.description = "PackedDataset(" + examples.name() + ", rows of " + maxLength + ", windows of "
                + b.windowSize + (b.pack ? "" : ", unpacked") + ", " + b.overlong.name().toLowerCase(Locale.ROOT)
                + " overlong" + (b.shuffle ? ", seed " + b.seed + ", epoch " + b.epoch : "") + ")";
    }

    /**
     * Settings over {@code examples}, whose example {@code i} has {@code lengths[i]} tokens, packed
     * into rows of {@code maxLength}: windows of 1000 examples, seed 0, epoch 0, ignore index -100,
     * pad token 0, truncation.
     */
    public static Builder builder(Dataset<int[]> examples, int[] lengths, int maxLength) {
        return new Builder(Objects.requireNonNull(examples, "examples"), Objects.requireNonNull(lengths, "lengths"),
                maxLength);
    }

    /** The number of rows. */
    @Override
    public long size() {
        return firstRow[firstRow.length - 1];
    }

    /** The examples' tokens in all rows (after truncation): what the rows carry that is not padding. */
    public long realTokens() {
        return realTokens;
    }

    /** Packing efficiency: real tokens over row tokens, {@code realTokens() / (size() * maxLength)}; 1 when empty. */
    public double efficiency() {
        long rows = size();
        return rows == 0 ? 1.0 : (double) realTokens / ((double) rows * maxLength);
    }

    public int maxLength() {
        return maxLength;
    }

    /** The segments of row {@code index}, in the order they sit in the row; no example is read. */
    public List<Segment> segments(long index) {
        return List.of(rowSegments(index));
    }

    private Segment[] rowSegments(long index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("row " + index + " of " + size() + " in " + description);
        }
        int w = Arrays.binarySearch(firstRow, index);
        w = w >= 0 ? w : -w - 2;
        while (firstRow[w + 1] == index) { // windows without rows (all their examples empty) share a start
            w++;
        }
        PlannedWindow p = planned.get(w % CACHED_WINDOWS);
        if (p == null || p.window() != w) { // workers racing here plan the same window twice, harmlessly
            p = new PlannedWindow(w, plan.rows(w));
            planned.set(w % CACHED_WINDOWS, p);
        }
        return p.rows()[(int) (index - firstRow[w])];
    }

    @Override
    public PackedRow get(long index) {
        Segment[] segments = rowSegments(index);
        long[] wanted = new long[segments.length];
        for (int k = 0; k < segments.length; k++) {
            wanted[k] = segments[k].example();
        }
        List<int[]> tokens = examples.getBatch(wanted);
        int[] inputIds = new int[maxLength];
        int[] labels = new int[maxLength];
        int[] positionIds = new int[maxLength];
        int[] attentionMask = new int[maxLength];
        List<Integer> bounds = new ArrayList<>(segments.length + 2);
        bounds.add(0);
        int at = 0;
        int longest = 0;
        for (int k = 0; k < segments.length; k++) {
            Segment s = segments[k];
            int e = (int) s.example();
            int[] ids = checked(tokens.get(k), s, e);
            int prompt = promptLengths == null ? 0 : promptLengths[e];
            for (int t = 0; t < s.length(); t++) {
                int p = s.offset() + t;
                inputIds[at + t] = ids[p];
                boolean ignored = p < prompt || (maskBoundaries && t == 0);
                labels[at + t] = ignored ? ignoreIndex : ids[p];
                positionIds[at + t] = t;
                attentionMask[at + t] = 1;
            }
            at += s.length();
            longest = Math.max(longest, s.length());
            bounds.add(at);
        }
        for (int t = 0; at + t < maxLength; t++) {
            inputIds[at + t] = padTokenId;
            labels[at + t] = ignoreIndex;
            positionIds[at + t] = t;
        }
        if (at < maxLength) {
            bounds.add(maxLength);
            longest = Math.max(longest, maxLength - at);
        }
        int[] cuSeqlens = bounds.stream().mapToInt(Integer::intValue).toArray();
        return new PackedRow(inputIds, labels, positionIds, attentionMask, cuSeqlens, longest, List.of(segments));
    }

    /**
     * The rows as a fillable dataset: the loader writes {@code input_ids}, {@code labels},
     * {@code position_ids} and {@code attention_mask}, each {@code (maxLength)} int64, straight into
     * its pooled batch ({@code (n, maxLength)} per field), with no per-row arrays and no collate.
     * What a variable-length kernel also wants, {@code cu_seqlens}, varies in length from batch to
     * batch and so has no place in a fixed layout: take {@link PackedCollate} for it, or derive it
     * from the position ids (a segment starts where they are 0).
     *
     * <pre>{@code
     * DataLoader<PackedRow> loader = DataLoader.builder(rows.fillable()).batchSize(8).shuffle(true).build();
     * }</pre>
     */
    public FillableDataset<PackedRow> fillable() {
        return new PackedFill(this);
    }

    /**
     * Writes row {@code index} into four int64 rows of {@code maxLength}: the fill path's
     * {@link #get}, the same values.
     */
    void fill(long index, MemorySegment inputIds, MemorySegment labels, MemorySegment positionIds,
            MemorySegment attentionMask) {
        Segment[] segments = rowSegments(index);
        long[] wanted = new long[segments.length];
        for (int k = 0; k < segments.length; k++) {
            wanted[k] = segments[k].example();
        }
        List<int[]> tokens = examples.getBatch(wanted);
        // the row is written on the heap, then copied in four bulk copies: four writes into the
        // batch's shared memory per token checked the memory's liveness each time (13% of W9's fill)
        long[] row = rowScratch.get();
        int n = maxLength;
        int at = 0;
        for (int k = 0; k < segments.length; k++) {
            Segment s = segments[k];
            int e = (int) s.example();
            int[] ids = checked(tokens.get(k), s, e);
            int prompt = promptLengths == null ? 0 : promptLengths[e];
            if (s.length() > n - at) { // the plan fits rows by construction; the heap row would not say so
                throw new IllegalStateException("row " + index + " of " + description + " plans more than "
                        + n + " tokens");
            }
            // field by field, each a plain loop the JIT vectorizes (one loop writing all four, with a
            // branch for the ignored labels, was 13% of W9's fill): labels are the ids, then the
            // prompt's tokens (and the example's first, with masked boundaries) are ignored
            int len = s.length();
            int off = s.offset();
            for (int t = 0; t < len; t++) {
                row[at + t] = ids[off + t];
            }
            System.arraycopy(row, at, row, n + at, len);
            int ignored = Math.min(len, Math.max(prompt - off, maskBoundaries ? 1 : 0));
            java.util.Arrays.fill(row, n + at, n + at + Math.max(0, ignored), ignoreIndex);
            for (int t = 0; t < len; t++) {
                row[2 * n + at + t] = t;
            }
            java.util.Arrays.fill(row, 3 * n + at, 3 * n + at + len, 1);
            at += len;
        }
        for (int t = 0; at + t < n; t++) {
            int i = at + t;
            row[i] = padTokenId;
            row[n + i] = ignoreIndex;
            row[2 * n + i] = t;
            row[3 * n + i] = 0;
        }
        MemorySegment.copy(row, 0, inputIds, I64, 0, n);
        MemorySegment.copy(row, n, labels, I64, 0, n);
        MemorySegment.copy(row, 2 * n, positionIds, I64, 0, n);
        MemorySegment.copy(row, 3 * n, attentionMask, I64, 0, n);
    }

    /**
     * Example {@code example}'s tokens, as read for segment {@code s}, once they are its given
     * length and (with a vocabulary size) within it: the one compare per token of TokenIds, over
     * the part of the example the row takes.
     */
    private int[] checked(int[] ids, Segment s, int example) {
        if (ids.length != lengths[example]) {
            throw new IllegalStateException("example " + example + " of " + examples.name() + " has " + ids.length
                    + " tokens, but its length was given as " + lengths[example]);
        }
        if (vocabSize > 0) {
            int bad = TokenIds.firstOutside(ids, s.offset(), s.offset() + s.length(), vocabSize);
            if (bad >= 0) {
                throw new TokenIdException(examples.name(), DataPosition.item("example", example), bad, ids[bad],
                        vocabSize);
            }
        }
        return ids;
    }

    @Override
    public String name() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }

    /** Settings of a {@link PackedDataset}; see {@link PackedDataset#builder}. */
    public static final class Builder {
        private final Dataset<int[]> examples;
        private final int[] lengths;
        private final int maxLength;
        private int[] promptLengths;
        private int windowSize = 1000;
        private long seed;
        private long epoch;
        private boolean shuffle = true;
        private Overlong overlong = Overlong.TRUNCATE;
        private int ignoreIndex = -100;
        private int padTokenId;
        private boolean maskBoundaries = true;
        private boolean pack = true;
        private int vocabSize;

        private Builder(Dataset<int[]> examples, int[] lengths, int maxLength) {
            this.examples = examples;
            this.lengths = lengths;
            this.maxLength = maxLength;
        }

        /** Tokens at the start of each example that are prompt, not trained on (labels ignored); default none. */
        public Builder promptLengths(int[] promptLengths) {
            this.promptLengths = Objects.requireNonNull(promptLengths, "promptLengths");
            return this;
        }

        /**
         * Examples packed together; default 1000. Larger windows pack tighter (fewer part-empty rows per
         * window) and cost more when a row's window is not among the 64 planned last (its plan is computed
         * again: about 0.2 ms for 1000 examples, 1.4 ms for 10,000). A row order that keeps to a few
         * windows at a time ({@link dev.stoker.sampler.BlockShuffleSampler}) rarely pays it.
         */
        public Builder windowSize(int windowSize) {
            this.windowSize = windowSize;
            return this;
        }

        /** The seed of the shuffle that fills the windows, the same on every rank; default 0. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The packing's epoch: another epoch, another shuffle of the examples into windows; default 0. */
        public Builder epoch(long epoch) {
            this.epoch = epoch;
            return this;
        }

        /** Whether the windows take a shuffle of the examples (default) or the examples in order. */
        public Builder shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /** What happens to an example longer than a row; default {@link Overlong#TRUNCATE}. */
        public Builder overlong(Overlong overlong) {
            this.overlong = Objects.requireNonNull(overlong, "overlong");
            return this;
        }

        /** The label that the loss ignores; default -100, PyTorch's {@code CrossEntropyLoss} default. */
        public Builder ignoreIndex(int ignoreIndex) {
            this.ignoreIndex = ignoreIndex;
            return this;
        }

        /** The token id of padding; default 0. */
        public Builder padTokenId(int padTokenId) {
            this.padTokenId = padTokenId;
            return this;
        }

        /** Whether each segment's first label is ignored (default true: no prediction across a boundary). */
        public Builder maskBoundaries(boolean maskBoundaries) {
            this.maskBoundaries = maskBoundaries;
            return this;
        }

        /** Whether to pack (default) or give each example a padded row of its own, with its attention mask. */
        public Builder pack(boolean pack) {
            this.pack = pack;
            return this;
        }

        /**
         * The model's vocabulary size: every token id a row takes is checked to be in
         * {@code [0, vocabSize)} as the row is made, and one outside is refused with a
         * {@link TokenIdException} naming the examples' file, the example and the id, instead of
         * reaching the model's embedding (where a GPU would fail on it far from its cause). The
         * pad token must be inside too. Default: not checked.
         */
        public Builder vocabSize(int vocabSize) {
            this.vocabSize = TokenIds.requireVocabSize(vocabSize);
            return this;
        }

        /**
         * Plans every window from the lengths (no example is read).
         *
         * @throws IllegalArgumentException for a length count unlike the dataset's size, a negative length,
         *     a row or window below 1, or a pad token outside the vocabulary
         */
        public PackedDataset build() {
            return new PackedDataset(this);
        }
    }
}
