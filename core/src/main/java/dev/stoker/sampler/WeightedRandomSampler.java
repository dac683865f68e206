package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import java.util.PrimitiveIterator;

/**
 * Draws indices {@code 0..weights.length-1} with probability proportional to their weights, like
 * PyTorch's {@code WeightedRandomSampler}; an index of weight zero is never drawn. The draws are a
 * pure function of (weights, numSamples, replacement, seed, epoch), with {@code s = mix(seed, epoch)}
 * and {@code splitMix(s, i)} output {@code i} of a SplitMix64 stream (see {@link Seeds}):
 * <ul>
 *   <li>With replacement, by Vose's alias method over the non-zero weights, O(1) per draw: draw
 *       {@code i} takes its column from {@code splitMix(s, 2i)} (Lemire's unbiased bounded draw) and
 *       its coin from the top 53 bits of {@code splitMix(s, 2i + 1)}.
 *   <li>Without replacement, by Efraimidis–Spirakis exponential keys: index {@code j} gets key
 *       {@code -ln(u_j) / w_j} with {@code u_j = ((splitMix(s, j) >>> 11) + 1)·2^-53} (the logarithm
 *       is {@link StrictMath#log}, so results agree across platforms), and the epoch yields the
 *       {@code numSamples} smallest keys in ascending order: the same distribution as drawing one
 *       at a time and removing each drawn index, which is what PyTorch's
 *       {@code torch.multinomial(replacement=False)} does. Costs O(m log numSamples) per epoch for
 *       m weights.
 * </ul>
 *
 * <pre>{@code
 * double[] weights = {0.1, 0.1, 0.8};                 // e.g. inverse class frequencies
 * Sampler s = new WeightedRandomSampler(weights, 1000, true, 42);
 * }</pre>
 */
public final class WeightedRandomSampler implements Sampler {
    private final double[] weights;
    private final long numSamples;
    private final boolean replacement;
    private final long seed;
    /** The indices of non-zero weight: only they take part in draws. */
    private final int[] positive;
    private final double[] positiveWeights;
    private final AliasTable table;

    /**
     * @param weights     one weight per dataset index: non-negative, finite, not all zero; copied
     * @param numSamples  indices per epoch, {@code >= 0}; without replacement at most the number
     *                    of non-zero weights
     * @param replacement whether an index may be drawn more than once per epoch
     * @param seed        the seed of the draws
     * @throws IllegalArgumentException for invalid weights or count, with the reason
     */
    public WeightedRandomSampler(double[] weights, long numSamples, boolean replacement, long seed) {
        this.weights = weights.clone();
        int nonZero = 0;
        for (int i = 0; i < this.weights.length; i++) {
            double w = this.weights[i];
            if (!(w >= 0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException("weights[" + i + "] is " + w
                        + "; weights must be non-negative and finite");
            }
            if (w > 0) {
                nonZero++;
            }
        }
        if (nonZero == 0) {
            throw new IllegalArgumentException("weights are " + (this.weights.length == 0 ? "empty" : "all zero")
                    + "; at least one weight must be positive");
        }
        if (numSamples < 0) {
            throw new IllegalArgumentException("numSamples must be >= 0, got " + numSamples);
        }
        if (!replacement && numSamples > nonZero) {
            throw new IllegalArgumentException("cannot draw " + numSamples + " samples without replacement: only "
                    + nonZero + " of the " + this.weights.length + " weights are non-zero");
        }
        this.numSamples = numSamples;
        this.replacement = replacement;
        this.seed = seed;
        this.positive = new int[nonZero];
        this.positiveWeights = new double[nonZero];
        for (int i = 0, j = 0; i < this.weights.length; i++) {
            if (this.weights[i] > 0) {
                positive[j] = i;
                positiveWeights[j++] = this.weights[i];
            }
        }
        this.table = replacement ? AliasTable.of(positiveWeights) : null;
    }

    @Override
    public long size() {
        return numSamples;
    }

    /** A copy of the weights. */
    public double[] weights() {
        return weights.clone();
    }

    public boolean replacement() {
        return replacement;
    }

    public long seed() {
        return seed;
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        long stream = Seeds.mix(seed, epoch);
        if (replacement) {
            return new IndexIterator(numSamples, i -> positive[table.sample(
                    Seeds.splitMix(stream, 2 * i), Seeds.splitMix(stream, 2 * i + 1))]);
        }
        SmallestKeys smallest = new SmallestKeys((int) numSamples);
        for (int j = 0; j < positive.length; j++) {
            double u = Seeds.unitNonZero(Seeds.splitMix(stream, positive[j]));
            smallest.offer(-StrictMath.log(u) / positiveWeights[j], positive[j]);
        }
        long[] drawn = smallest.ascendingItems();
        return new IndexIterator(drawn.length, p -> drawn[(int) p]);
    }

    @Override
    public String toString() {
        return "WeightedRandomSampler[weights=" + weights.length + ", numSamples=" + numSamples
                + ", replacement=" + replacement + ", seed=" + seed + "]";
    }
}
