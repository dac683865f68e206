package dev.stoker.sampler;

/**
 * How much of one source a {@link MixtureSampler} takes per epoch, with the meanings of MosaicML
 * Streaming's {@code Stream(proportion=, repeat=, choose=)}:
 * <ul>
 *   <li>{@link #proportion}: a relative weight; the source's share of the epoch is its weight over
 *       the sum of all weights. Every source of a mixture must then have a proportion.
 *   <li>{@link #repeat}: an absolute count, {@code times} the source's size (0.5 takes half of it,
 *       3 takes it three times over).
 *   <li>{@link #choose}: an absolute count of samples.
 * </ul>
 * Repeat and choose may be mixed; neither mixes with proportion, because a relative weight needs
 * the epoch's size, which absolute counts already fix.
 *
 * <pre>{@code
 * Share.proportion(0.7);   // 70% of each epoch, when the weights sum to 1
 * Share.repeat(2);         // every sample of the source twice per epoch
 * Share.choose(10_000);    // 10,000 samples of the source per epoch
 * }</pre>
 */
public sealed interface Share {

    /** A relative weight: finite and {@code >= 0}. */
    static Share proportion(double weight) {
        return new Proportion(weight);
    }

    /** The source's size times {@code times} (finite, {@code >= 0}), rounded to the nearest sample. */
    static Share repeat(double times) {
        return new Repeat(times);
    }

    /** Exactly {@code samples} samples ({@code >= 0}) of the source per epoch. */
    static Share choose(long samples) {
        return new Choose(samples);
    }

    /** A relative weight; see {@link Share#proportion}. */
    record Proportion(double weight) implements Share {
        public Proportion {
            if (!(weight >= 0) || !Double.isFinite(weight)) {
                throw new IllegalArgumentException("a proportion must be finite and >= 0, got " + weight);
            }
        }
    }

    /** A multiple of the source's size; see {@link Share#repeat}. */
    record Repeat(double times) implements Share {
        public Repeat {
            if (!(times >= 0) || !Double.isFinite(times)) {
                throw new IllegalArgumentException("a repeat must be finite and >= 0, got " + times);
            }
        }
    }

    /** A count of samples; see {@link Share#choose}. */
    record Choose(long samples) implements Share {
        public Choose {
            if (samples < 0) {
                throw new IllegalArgumentException("choose needs a count >= 0, got " + samples);
            }
        }
    }
}
