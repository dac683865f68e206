package dev.stoker.sampler;

import java.util.List;

/**
 * How many samples each source of a mixture gives per epoch: the {@link Share}s turned into
 * counts. Proportions are rounded cumulatively, {@code count[k] = round(E·W(k+1)/W) − round(E·W(k)/W)}
 * with {@code W(k)} the sum of the first k weights, so that every count is within one sample of
 * its exact share and the counts add up to the epoch size {@code E} exactly.
 */
final class MixtureCounts {
    private MixtureCounts() {
    }

    /**
     * @param sizes     the sources' sizes
     * @param shares    one per source, or {@code null} for none: each source once, or in
     *                  proportion to its size when an epoch size is given
     * @param epochSize the epoch's size for proportions, or {@code -1} for the sum of the sizes
     */
    static long[] of(long[] sizes, List<Share> shares, long epochSize) {
        if (shares == null) {
            if (epochSize < 0) {
                return sizes.clone();
            }
            double[] weights = new double[sizes.length];
            for (int k = 0; k < sizes.length; k++) {
                weights[k] = sizes[k];
            }
            return proportional(sizes, weights, epochSize);
        }
        if (shares.size() != sizes.length) {
            throw new IllegalArgumentException("the mixture has " + sizes.length + " sources but "
                    + shares.size() + " shares: give one share per source");
        }
        boolean relative = shares.getFirst() instanceof Share.Proportion;
        for (int k = 0; k < shares.size(); k++) {
            if ((shares.get(k) instanceof Share.Proportion) != relative) {
                throw new IllegalArgumentException("source 0 has " + shares.getFirst() + " but source " + k
                        + " has " + shares.get(k) + ": proportions are relative and cannot be mixed with "
                        + "repeat or choose, which are absolute; use one kind for every source");
            }
        }
        if (relative) {
            double[] weights = new double[sizes.length];
            for (int k = 0; k < sizes.length; k++) {
                weights[k] = ((Share.Proportion) shares.get(k)).weight();
            }
            return proportional(sizes, weights, epochSize < 0 ? total(sizes) : epochSize);
        }
        if (epochSize >= 0) {
            throw new IllegalArgumentException("epochSize " + epochSize + " was given, but repeat and choose "
                    + "fix each source's count themselves; give proportions to size an epoch");
        }
        long[] counts = new long[sizes.length];
        for (int k = 0; k < sizes.length; k++) {
            counts[k] = switch (shares.get(k)) {
                case Share.Choose c -> c.samples();
                case Share.Repeat r -> repeated(sizes[k], r.times(), k);
                case Share.Proportion p -> throw new AssertionError("checked above");
            };
            requireSamples(sizes, counts, k);
        }
        return counts;
    }

    /** {@code total} shared out in proportion to {@code weights}, by the cumulative rounding above. */
    static long[] shareOut(double[] weights, long total) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        if (!(sum > 0) || !Double.isFinite(sum)) {
            if (total == 0) {
                return new long[weights.length];
            }
            throw new IllegalArgumentException("the proportions add up to " + sum
                    + ": at least one source needs a weight above 0 to fill an epoch of " + total);
        }
        long[] counts = new long[weights.length];
        double cumulative = 0;
        long before = 0;
        int heaviest = 0;
        for (int k = 0; k < weights.length; k++) {
            cumulative += weights[k];
            long upTo = Math.min(total, Math.round(total * Math.min(1.0, cumulative / sum)));
            // A weight of 0 adds nothing to the sum, so its count is 0 whatever the rounding.
            counts[k] = weights[k] == 0 ? 0 : Math.max(0, upTo - before);
            before += counts[k];
            heaviest = weights[k] > weights[heaviest] ? k : heaviest;
        }
        // Floating point may leave the last rounding a sample or so off: the largest share takes it.
        counts[heaviest] += total - before;
        return counts;
    }

    /** The epoch shared out by the weights, each source checked to have samples for its count. */
    private static long[] proportional(long[] sizes, double[] weights, long epochSize) {
        long[] counts = shareOut(weights, epochSize);
        for (int k = 0; k < sizes.length; k++) {
            requireSamples(sizes, counts, k);
        }
        return counts;
    }

    private static long repeated(long size, double times, int source) {
        double exact = size * times;
        if (exact >= 0x1p63) {
            throw new IllegalArgumentException("source " + source + ": repeat " + times + " of " + size
                    + " samples passes 2^63");
        }
        return Math.round(exact);
    }

    private static void requireSamples(long[] sizes, long[] counts, int k) {
        if (counts[k] > 0 && sizes[k] == 0) {
            throw new IllegalArgumentException("source " + k + " is empty but its share asks for " + counts[k]
                    + " samples per epoch");
        }
    }

    static long total(long[] counts) {
        long sum = 0;
        for (int k = 0; k < counts.length; k++) {
            try {
                sum = Math.addExact(sum, counts[k]);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("the mixture's epoch passes 2^63 samples at source " + k, e);
            }
        }
        return sum;
    }
}
