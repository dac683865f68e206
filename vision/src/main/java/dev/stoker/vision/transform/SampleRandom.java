package dev.stoker.vision.transform;

import dev.stoker.data.WorkerContext;
import dev.stoker.random.Seeds;

/**
 * The random numbers for one sample's transforms: a SplitMix64 stream keyed by (seed, epoch,
 * sample index), so a sample gets the same crop and flip whichever worker thread loads it, and a
 * different one every epoch. Draws are taken in the order the transforms ask for them.
 *
 * <pre>{@code
 * SampleRandom r = SampleRandom.of(seed, epoch, index);
 * double u = r.uniform(0.08, 1.0);   // as torch.empty(1).uniform_(0.08, 1.0)
 * long i = r.below(10);              // as torch.randint(0, 10, (1,))
 * }</pre>
 *
 * <p>Not thread-safe: one per sample, made where the sample is loaded (cheap: two longs).
 */
public final class SampleRandom {
    /** The word that keeps transform streams apart from the other streams drawn from (seed, epoch). */
    public static final long TRANSFORM_STREAM = 0x696D_6774_7261_6E73L; // "imgtrans"

    private final long stream;
    private long counter;

    private SampleRandom(long stream) {
        this.stream = stream;
    }

    /**
     * The stream of sample {@code index} in {@code epoch} under {@code seed}:
     * {@code Seeds.mix(seed, epoch, TRANSFORM_STREAM, index)}, whose {@code n}-th draw is
     * {@code Seeds.splitMix(key, n)}.
     */
    public static SampleRandom of(long seed, long epoch, long index) {
        return new SampleRandom(Seeds.mix(seed, epoch, TRANSFORM_STREAM, index));
    }

    /**
     * The stream of sample {@code index} under the seed and epoch of the loader pass this thread
     * works for ({@code WorkerContext}), or of seed 0, epoch 0 outside one: what every dataset that
     * transforms its samples draws from, so that a sample's draws are the same whichever dataset,
     * worker or device path makes it.
     */
    public static SampleRandom ofSample(long index) {
        WorkerContext ctx = WorkerContext.current().orElse(null);
        return ctx == null ? of(0, 0, index) : of(ctx.seed(), ctx.epoch(), index);
    }

    /** A stream from a key already mixed by the caller. */
    public static SampleRandom ofKey(long key) {
        return new SampleRandom(key);
    }

    /** 64 random bits. */
    public long nextLong() {
        return Seeds.splitMix(stream, counter++);
    }

    /** A double in [0, 1). */
    public double nextDouble() {
        return Seeds.unit(nextLong());
    }

    /** A double in [from, to), as {@code torch.Tensor.uniform_(from, to)}. */
    public double uniform(double from, double to) {
        return from + (to - from) * nextDouble();
    }

    /** A standard normal draw, as {@code torch.Tensor.normal_()} (the same distribution; Box-Muller, two draws). */
    public double normal() {
        double u1 = 1.0 - nextDouble();   // (0, 1]
        double u2 = nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /**
     * A draw from {@code Gamma(alpha, 1)}, {@code alpha > 0}, as {@code torch._standard_gamma}
     * (the same distribution): Marsaglia and Tsang's method; below 1, the boost
     * {@code Gamma(alpha + 1) U^(1/alpha)}. The Beta of MixUp and the Dirichlets of AugMix are
     * made from it.
     */
    public double gamma(double alpha) {
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("a gamma shape is positive and finite, not " + alpha);
        }
        if (alpha < 1) {
            double u = 1.0 - nextDouble();   // (0, 1]
            return gamma(alpha + 1) * Math.pow(u, 1 / alpha);
        }
        double d = alpha - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = normal();
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = 1.0 - nextDouble();
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }

    /** A long in [0, bound), without bias. */
    public long below(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, not " + bound);
        }
        return Seeds.below(nextLong(), bound);
    }
}
