package dev.stoker.vision.transform;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;

/**
 * Renders a {@link Geometry} of a decoded 8-bit RGB image into a slot: PIL's bilinear resampling
 * (a triangle filter widened by the scale when shrinking, so shrinking averages every source
 * pixel, as PIL and torchvision's antialiased resize do), done as PIL does it: two separable
 * passes, horizontal then vertical, in 22-bit fixed point with the intermediate rounded to
 * 8 bits. On the same source pixels the output equals PIL's {@code crop().resize(BILINEAR)}.
 *
 * <p>Only the source rows and columns the output needs are read. Two implementations of the
 * same integer arithmetic: {@link VectorResampler} (the Vector API with vectors of 256 bits or
 * more: each channel in a plane, permutes instead of transposes, an f32 slot normalized and
 * written from vector registers) and {@link ReferenceResampler} (without it, and the reference
 * the other is tested against), whose vertical pass hands each finished row to the
 * {@link SlotWriter}, which normalizes, flips and writes it into the slot. The working arrays come
 * from a {@link Scratch}.
 */
public final class Resampler {
    static final int PRECISION_BITS = 32 - 8 - 2;
    static final int HALF = 1 << (PRECISION_BITS - 1);

    private Resampler() {}

    /**
     * Gets the resampling code compiled on a thread of its own, once per JVM, until the first
     * image is rendered: an {@code ImagePipeline} calls it when it is built, so that a new JVM's
     * first batch does not run it interpreted. Calling it again does nothing.
     */
    public static void prepareInBackground() {
        PlainWarmup.start();
    }

    /**
     * Writes geometry {@code g} of {@code pixels} ({@code width x height} RGB, rows packed) into
     * {@code slot}, a {@code (3, H, W)} tensor whose H and W are {@code g}'s. The pixels may be a
     * DCT-scaled decode of the source {@code g} was planned for: the mapping is scaled to them.
     */
    public static void render(MemorySegment pixels, int width, int height, Geometry g, Normalize normalize,
                              Tensor slot, Scratch scratch) {
        render(SourcePixels.whole(pixels, width, height), g, new SlotWriter(slot, normalize, g, scratch), scratch);
    }

    /**
     * As {@link #render(MemorySegment, int, int, Geometry, Normalize, Tensor, Scratch)}, from a
     * window of the decoded image (a crop decoded on its own) that holds every source pixel
     * {@code g} reads.
     *
     * @throws IllegalArgumentException when the window misses pixels the geometry reads
     */
    public static void render(SourcePixels source, Geometry g, Normalize normalize, Tensor slot, Scratch scratch) {
        render(source, g, new SlotWriter(slot, normalize, g, scratch), scratch);
    }

    /** As {@link #render(MemorySegment, int, int, Geometry, Tile, Scratch)}, from a window of the decoded image. */
    public static void render(SourcePixels source, Geometry g, Tile tile, Scratch scratch) {
        render(source, g, new TileWriter(tile, g), scratch);
    }

    /**
     * Writes geometry {@code g} of {@code pixels} into {@code tile} as 8-bit RGB (flipped and padded
     * as {@code g} says), for {@link PixelOp}s to work on; {@link #write} then normalizes it into
     * the slot. The same pixels {@link #render(MemorySegment, int, int, Geometry, Normalize, Tensor, Scratch)}
     * would have normalized.
     */
    public static void render(MemorySegment pixels, int width, int height, Geometry g, Tile tile, Scratch scratch) {
        render(SourcePixels.whole(pixels, width, height), g, new TileWriter(tile, g), scratch);
    }

    /** Writes {@code tile} into {@code slot}, a {@code (3, H, W)} tensor of the tile's size, normalized. */
    public static void write(Tile tile, Normalize normalize, Tensor slot, Scratch scratch) {
        SlotWriter writer = new SlotWriter(slot, normalize, tile.width(), tile.height(), scratch);
        if (Mac.vectorReady() && writer.isF32() && Mac.wide()) {
            VectorResampler.write(tile, writer);
            return;
        }
        byte[] px = tile.pixels();
        for (int y = 0, at = 0; y < tile.height(); y++, at += 3 * tile.width()) {
            writer.row(y, px, at);
        }
    }

    private static void render(SourcePixels source, Geometry g, RowSink writer, Scratch scratch) {
        Taps t = Taps.of(source, g, scratch);
        boolean vector = Mac.vectorNow(); // the plain loops in a new JVM until the vector code is compiled
        if (vector && Mac.wide()) {
            VectorResampler.render(source, g, t, writer, scratch);
        } else {
            ReferenceResampler.render(source, g, t, writer, scratch, vector);
        }
    }

    /** The plain path, whatever the JVM offers: for tests, which compare the two paths. */
    static void renderReference(SourcePixels source, Geometry g, RowSink writer, Scratch scratch) {
        ReferenceResampler.render(source, g, Taps.of(source, g, scratch), writer, scratch, Mac.VECTOR);
    }

    /** A fixed-point sum back to 8 bits, clipped (PIL's {@code clip8}). */
    static int clip(int acc) {
        int v = acc >> PRECISION_BITS;
        return v < 0 ? 0 : Math.min(v, 255);
    }

    static int kernelSize(double scale) {
        return (int) Math.ceil(Math.max(scale, 1.0)) * 2 + 1;
    }

    /**
     * PIL's {@code precompute_coeffs} and {@code normalize_coeffs_8bpc} for the outputs of one axis
     * (bilinear: support 1), with the axis mapping scaled by {@code s} to a DCT-scaled decode of
     * {@code decodedSize} pixels. Writes the first source position and the tap count of output
     * {@code i} to {@code bounds[2i]} and {@code bounds[2i + 1]}, its weights to
     * {@code kk[i * ksize ...]}.
     */
    static void coefficients(Geometry.Axis a, double s, int decodedSize, int count, int[] bounds, int[] kk,
                             int ksize, Scratch scratch) {
        int origin = a.origin;
        int inSize = a.inSize;
        double in0 = a.in0;
        double scale = a.scale;
        if (s != 1.0) {
            // The decode is smaller than the source: the same region, in the smaller pixels.
            int lo = (int) Math.floor(a.origin * s);
            int hi = Math.min(decodedSize, Math.max(lo + 1, (int) Math.ceil((a.origin + a.inSize) * s)));
            in0 = (a.origin + a.in0) * s - lo;
            origin = lo;
            inSize = hi - lo;
            scale = a.scale * s;
        }
        double filterscale = Math.max(scale, 1.0);
        double[] w = scratch.weights(ksize);
        for (int i = 0; i < count; i++) {
            output(i, in0 + (i + a.shift + 0.5) * scale, filterscale, origin, inSize, bounds, kk, ksize, w);
        }
    }

    /**
     * The bounds and weights of output {@code i}, whose centre is at {@code center} in the source:
     * a method of its own, called per output, so that the JIT compiles it whole and early, where
     * as the body of {@link #coefficients}'s loop (called twice per image) its inner loops cost C2
     * two on-stack compilations and two whole ones of coefficients during a new JVM's first batch.
     */
    private static void output(int i, double center, double filterscale, int origin, int inSize, int[] bounds,
                               int[] kk, int ksize, double[] w) {
        double support = filterscale;
        double ss = 1.0 / filterscale;
        // clamped without branches: C2 compiles them as taken or not as the first images went,
        // and the first crop at an edge made it compile the method again
        int xmin = Math.max(0, (int) (center - support + 0.5));
        int xmax = Math.max(0, Math.min(inSize, (int) (center + support + 0.5)) - xmin);
        double ww = 0.0;
        for (int x = 0; x < xmax; x++) {
            double v = bilinear((x + xmin - center + 0.5) * ss);
            w[x] = v;
            ww += v;
        }
        int k0 = i * ksize;
        for (int x = 0; x < ksize; x++) {
            double v = x < xmax && ww != 0.0 ? w[x] / ww : 0.0;
            kk[k0 + x] = (int) (v < 0 ? -0.5 + v * (1 << PRECISION_BITS) : 0.5 + v * (1 << PRECISION_BITS));
        }
        bounds[2 * i] = origin + xmin;
        bounds[2 * i + 1] = xmax;
    }

    private static double bilinear(double x) {
        // 1 - |x| for |x| < 1, else 0, as PIL's; without branches, since C2 compiled them as the
        // first images took them and compiled output() again at the first that did otherwise
        return Math.max(0.0, 1.0 - Math.abs(x));
    }
}
