package dev.stoker.packing;

import java.util.List;

/**
 * One packed row of {@link PackedDataset}: whole examples side by side, then padding, all arrays
 * of the row's {@code maxLength}.
 *
 * <ul>
 *   <li>{@code inputIds}: the examples' tokens, then the pad token;
 *   <li>{@code labels}: the tokens again (unshifted, as Hugging Face models take them: the model
 *       shifts), with the ignore index on prompt tokens, on the first token of every segment (so no
 *       example is trained to predict across a boundary from the one before) and on padding;
 *   <li>{@code positionIds}: 0, 1, 2, ... restarting at each segment and at the padding;
 *   <li>{@code attentionMask}: 1 on the examples' tokens, 0 on padding;
 *   <li>{@code cuSeqlens}: the cumulative segment lengths for variable-length attention,
 *       {@code [0, l1, l1 + l2, ..., maxLength]}: padding, if any, is a last segment of its own,
 *       so the row's tokens are all covered; {@code maxSeqlen} is the longest of them, padding
 *       included (a kernel's upper bound);
 *   <li>{@code segments}: which example (and which part of it) each segment is.
 * </ul>
 */
public record PackedRow(int[] inputIds, int[] labels, int[] positionIds, int[] attentionMask, int[] cuSeqlens,
                        int maxSeqlen, List<Segment> segments) {

    public PackedRow {
        segments = List.copyOf(segments);
    }

    /** The row's length, {@code maxLength}. */
    public int length() {
        return inputIds.length;
    }

    /** The examples' tokens in this row: the row's length less its padding. */
    public int realTokens() {
        int sum = 0;
        for (Segment s : segments) {
            sum += s.length();
        }
        return sum;
    }
}
