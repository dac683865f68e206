package dev.stoker.data;

import dev.stoker.random.Seeds;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fast, reproducible, approximately standard-normal {@code float} noise: the pixels of
 * {@link SyntheticDataset}, written into Java arrays or straight into batch memory.
 *
 * <p>Each value is a lookup in a table of {@value #TABLE_SIZE} standard-normal quantiles,
 * {@code Φ⁻¹((k + ½) / 65536)} rescaled so that the table's variance is exactly 1, indexed by
 * 16 random bits; one 64-bit SplitMix64 draw gives four values. That is well under a nanosecond
 * per value, some fifty times faster than {@link java.util.Random#nextGaussian()}, and the values
 * are a pure function of the seed and the position.
 *
 * <p>NOTE: the values are approximately, not exactly, standard normal. They take one of 65,536
 * levels: neighbouring levels are about 3.8e-5 apart near 0 (one level per 1/65536 of
 * probability), further apart in the tails, and no value is beyond ±4.33
 * ({@link #maxMagnitude()}; a true normal passes that about once in 65,000 draws). Mean 0 and
 * variance 1 hold exactly for the table and to sampling error for any fill. That is plenty for
 * synthetic images and benchmark noise; it is not a statistical-grade generator.
 *
 * <pre>{@code
 * float[] image = new float[3 * 224 * 224];
 * GaussianFill.fill(image, 42);                          // the same 150,528 values for seed 42, always
 * GaussianFill.fill(buffer.segment(), image.length, 42); // the same values as float32 into batch memory
 * }</pre>
 */
public final class GaussianFill {
    /** Entries of the quantile table: 16 bits of index. */
    public static final int TABLE_SIZE = 1 << 16;

    private static final int MASK = TABLE_SIZE - 1;
    private static final AtomicBoolean PREPARING = new AtomicBoolean();

    private GaussianFill() {}

    /** The table, built when this holder is initialized: by the first fill, or in the background. */
    private static final class Table {
        static final float[] VALUES = buildTable();
    }

    /**
     * Builds the table on a thread of its own, once per JVM, unless done: 65,536 quantiles, some
     * 10-30 ms of a new JVM that every worker's first sample waited for. Called when a
     * {@link SyntheticDataset} is made, so it runs while the loader is built and its workers
     * start; a fill that comes sooner waits for it (the JVM's class initialization lock), and the
     * table is never built twice.
     */
    static void prepareInBackground() {
        if (PREPARING.getAndSet(true)) {
            return;
        }
        Thread.ofPlatform().daemon().name("stoker-gaussian-table").start(() -> {
            try {
                Class.forName(Table.class.getName(), true, GaussianFill.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // the first fill then meets the same error, where it is thrown as before
            }
        });
    }

    /** Fills all of {@code dst}; see {@link #fill(float[], int, int, long)}. */
    public static void fill(float[] dst, long seed) {
        fill(dst, 0, dst.length, seed);
    }

    /**
     * Fills {@code dst[offset, offset + length)} with the first {@code length} values of the
     * stream of {@code seed}. The same seed gives the same values here and in
     * {@link #fill(MemorySegment, long, long)}.
     */
    public static void fill(float[] dst, int offset, int length, long seed) {
        Objects.checkFromIndexSize(offset, length, dst.length);
        final float[] t = Table.VALUES;
        long state = Seeds.mix64(seed);
        int i = offset;
        int end = offset + length;
        for (; i + 4 <= end; i += 4) {
            long z = Seeds.mix64(state += Seeds.GOLDEN_GAMMA);
            dst[i] = t[(int) z & MASK];
            dst[i + 1] = t[(int) (z >>> 16) & MASK];
            dst[i + 2] = t[(int) (z >>> 32) & MASK];
            dst[i + 3] = t[(int) (z >>> 48)];
        }
        if (i < end) {
            long z = Seeds.mix64(state + Seeds.GOLDEN_GAMMA);
            for (; i < end; i++, z >>>= 16) {
                dst[i] = t[(int) z & MASK];
            }
        }
    }

    /** Fills every whole float32 of {@code dst} ({@code byteSize / 4} values). */
    public static void fill(MemorySegment dst, long seed) {
        fill(dst, dst.byteSize() / Float.BYTES, seed);
    }

    /**
     * Writes {@code count} float32 values (native byte order) from offset 0 of {@code dst}: the
     * same values that {@link #fill(float[], long)} gives for {@code seed}. For filling one
     * sample's slot of a batch, pass the slot ({@code segment.asSlice(...)}).
     *
     * @throws IndexOutOfBoundsException when {@code dst} holds fewer than {@code count} floats
     */
    public static void fill(MemorySegment dst, long count, long seed) {
        if (count < 0 || count > dst.byteSize() / Float.BYTES) {
            throw new IndexOutOfBoundsException("cannot write " + count + " floats into a segment of "
                    + dst.byteSize() + " bytes");
        }
        final float[] t = Table.VALUES;
        final ValueLayout.OfFloat f32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
        long state = Seeds.mix64(seed);
        long end = count * Float.BYTES;
        long off = 0;
        for (; off + 16 <= end; off += 16) {
            long z = Seeds.mix64(state += Seeds.GOLDEN_GAMMA);
            dst.set(f32, off, t[(int) z & MASK]);
            dst.set(f32, off + 4, t[(int) (z >>> 16) & MASK]);
            dst.set(f32, off + 8, t[(int) (z >>> 32) & MASK]);
            dst.set(f32, off + 12, t[(int) (z >>> 48)]);
        }
        if (off < end) {
            long z = Seeds.mix64(state + Seeds.GOLDEN_GAMMA);
            for (; off < end; off += 4, z >>>= 16) {
                dst.set(f32, off, t[(int) z & MASK]);
            }
        }
    }

    /** The largest magnitude a value can take: the outermost table entry. */
    public static float maxMagnitude() {
        return Table.VALUES[MASK];
    }

    private static float[] buildTable() {
        double[] q = new double[TABLE_SIZE];
        double sumSq = 0;
        for (int k = 0; k < TABLE_SIZE; k++) {
            q[k] = inverseNormalCdf((k + 0.5) / TABLE_SIZE);
            sumSq += q[k] * q[k];
        }
        // Midpoint quantiles cut off the tails, so their variance is a little under 1 (about
        // 0.99998); rescale so that the noise has unit variance. The mean is 0 by symmetry.
        double scale = 1 / Math.sqrt(sumSq / TABLE_SIZE);
        float[] table = new float[TABLE_SIZE];
        for (int k = 0; k < TABLE_SIZE; k++) {
            table[k] = (float) (q[k] * scale);
        }
        return table;
    }

    /**
     * Φ⁻¹(p), the standard normal quantile, by Wichura's algorithm AS 241 (PPND16), accurate to
     * about 1e-16 for p in (0, 1).
     */
    static double inverseNormalCdf(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("a probability strictly between 0 and 1, not " + p);
        }
        double q = p - 0.5;
        if (Math.abs(q) <= 0.425) {
            double r = 0.180625 - q * q;
            return q * (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r
                    + 45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r
                    + 133.14166789178437745) * r + 3.387132872796366608)
                    / (((((((r * 5226.495278852545925 + 28729.085735721942674) * r + 39307.89580009271061) * r
                    + 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r
                    + 42.313330701600911252) * r + 1.0);
        }
        double r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
        double v;
        if (r <= 5) {
            r -= 1.6;
            v = (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r
                    + 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r
                    + 4.6303378461565452959) * r + 1.42343711074968357734)
                    / (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r
                    + 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r
                    + 2.05319162663775882187) * r + 1.0);
        } else {
            r -= 5;
            v = (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r
                    + 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r
                    + 5.4637849111641143699) * r + 6.6579046435011037772)
                    / (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r
                    + 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r
                    + 0.59983220655588793769) * r + 1.0);
        }
        return q < 0 ? -v : v;
    }
}
