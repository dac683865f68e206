package dev.stoker.sampler;

import dev.stoker.random.Seeds;

/**
 * Vose's alias method: after O(k) setup, draws one of {@code k} outcomes with probability
 * proportional to its weight in O(1), from two random words. Outcome {@code j} is drawn when the
 * first word picks column {@code j} and the second falls under {@code probability[j]}, or when it
 * picks a column whose alias is {@code j} and falls above.
 *
 * <pre>{@code
 * AliasTable t = AliasTable.of(new double[] {1, 3});
 * t.sample(bits1, bits2);   // 1 three times as often as 0
 * }</pre>
 */
final class AliasTable {
    private final double[] probability;
    private final int[] alias;

    private AliasTable(double[] probability, int[] alias) {
        this.probability = probability;
        this.alias = alias;
    }

    /** A table over positive, finite weights (the caller validates them). */
    static AliasTable of(double[] weights) {
        int k = weights.length;
        // Scale by the largest weight first, so that a sum of huge weights cannot overflow.
        double max = 0;
        for (double w : weights) {
            max = Math.max(max, w);
        }
        double sum = 0;
        for (double w : weights) {
            sum += w / max;
        }
        double[] scaled = new double[k];
        for (int j = 0; j < k; j++) {
            scaled[j] = weights[j] / max * k / sum;
        }
        double[] probability = new double[k];
        int[] alias = new int[k];
        int[] small = new int[k];
        int[] large = new int[k];
        int smallCount = 0;
        int largeCount = 0;
        for (int j = 0; j < k; j++) {
            if (scaled[j] < 1) {
                small[smallCount++] = j;
            } else {
                large[largeCount++] = j;
            }
        }
        while (smallCount > 0 && largeCount > 0) {
            int less = small[--smallCount];
            int more = large[--largeCount];
            probability[less] = scaled[less];
            alias[less] = more;
            // Vose's ordering of this update keeps rounding error from accumulating.
            scaled[more] = (scaled[more] + scaled[less]) - 1;
            if (scaled[more] < 1) {
                small[smallCount++] = more;
            } else {
                large[largeCount++] = more;
            }
        }
        // What is left is 1 up to rounding.
        while (largeCount > 0) {
            probability[large[--largeCount]] = 1;
        }
        while (smallCount > 0) {
            probability[small[--smallCount]] = 1;
        }
        return new AliasTable(probability, alias);
    }

    int outcomes() {
        return probability.length;
    }

    /** An outcome in {@code [0, outcomes())}: the column from {@code columnBits}, the coin from {@code coinBits}. */
    int sample(long columnBits, long coinBits) {
        int column = (int) Seeds.below(columnBits, probability.length);
        return Seeds.unit(coinBits) < probability[column] ? column : alias[column];
    }

    /** The exact probability this table gives outcome {@code j}, for tests. */
    double probabilityOf(int j) {
        double p = 0;
        for (int c = 0; c < probability.length; c++) {
            if (c == j) {
                p += probability[c];
            }
            if (alias[c] == j && probability[c] < 1) {
                p += 1 - probability[c];
            }
        }
        return p / probability.length;
    }
}
