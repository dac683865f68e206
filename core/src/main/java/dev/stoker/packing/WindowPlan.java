package dev.stoker.packing;

import dev.stoker.sampler.FeistelPermutation;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows of each window of examples, as a pure function of the lengths, the settings and the
 * window's index: window {@code w} holds the examples at positions {@code [w * windowSize,
 * (w + 1) * windowSize)} of the epoch's order ((seed, epoch)'s {@link FeistelPermutation}, or the
 * dataset's order unshuffled); their segments (after truncating or splitting) are packed by
 * {@link FirstFitDecreasing}, or each put in a row of its own without packing.
 */
final class WindowPlan {
    private final int[] lengths;
    private final int maxLength;
    private final int windowSize;
    private final FeistelPermutation order; // null: the dataset's order
    private final Overlong overlong;
    private final boolean pack;

    WindowPlan(int[] lengths, int maxLength, int windowSize, FeistelPermutation order, Overlong overlong,
               boolean pack) {
        this.lengths = lengths;
        this.maxLength = maxLength;
        this.windowSize = windowSize;
        this.order = order;
        this.overlong = overlong;
        this.pack = pack;
    }

    int windows() {
        return (int) Math.ceilDiv((long) lengths.length, windowSize);
    }

    /** The rows of window {@code w}, each its segments in the order they sit in the row. */
    Segment[][] rows(int w) {
        int from = w * windowSize;
        int to = (int) Math.min(lengths.length, (long) from + windowSize);
        List<Segment> segments = new ArrayList<>();
        for (int p = from; p < to; p++) {
            int example = order == null ? p : (int) order.apply(p);
            int length = lengths[example];
            if (overlong == Overlong.TRUNCATE || length <= maxLength) {
                if (length > 0) { // an empty example has nothing to train on
                    segments.add(new Segment(example, 0, Math.min(length, maxLength)));
                }
            } else {
                for (int offset = 0; offset < length; offset += maxLength) {
                    segments.add(new Segment(example, offset, Math.min(maxLength, length - offset)));
                }
            }
        }
        if (!pack) {
            Segment[][] rows = new Segment[segments.size()][];
            for (int r = 0; r < rows.length; r++) {
                rows[r] = new Segment[] {segments.get(r)};
            }
            return rows;
        }
        int[] sizes = new int[segments.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = segments.get(i).length();
        }
        int[][] bins = FirstFitDecreasing.pack(sizes, maxLength);
        Segment[][] rows = new Segment[bins.length][];
        for (int r = 0; r < bins.length; r++) {
            rows[r] = new Segment[bins[r].length];
            for (int k = 0; k < bins[r].length; k++) {
                rows[r][k] = segments.get(bins[r][k]);
            }
        }
        return rows;
    }
}
