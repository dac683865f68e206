package dev.stoker.vision.transform;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Renders a {@link Geometry} of a decoded 8-bit RGB image into a slot: PIL's bilinear resampling
 * (a triangle filter widened by the scale when shrinking, so shrinking averages every source
 * pixel, as PIL and torchvision's antialiased resize do), done as PIL does it: two separable
 * passes, horizontal then vertical, in 22-bit fixed point with the intermediate rounded to
 * 8 bits. On the same source pixels the output equals PIL's {@code crop().resize(BILINEAR)}.
 *
 * <p>Only the source rows and columns the output needs are read; the vertical pass hands each
 * finished row to the {@link SlotWriter}, which normalizes, flips and writes it into the slot.
 * The multiply-adds of both passes run over contiguous int arrays ({@link Mac}: SIMD through the
 * Vector API when the JVM has it, once the JIT has compiled it); the working arrays come from a
 * {@link Scratch}.
 */
public final class Resampler {
    private static final int PRECISION_BITS = 32 - 8 - 2;
    private static final int HALF = 1 << (PRECISION_BITS - 1);
    /** Source rows per block of the horizontal pass: a column of 16 x 3 ints is three 512-bit vectors. */
    private static final int BLOCK = 16;

    private Resampler() {}

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
        byte[] px = tile.pixels();
        for (int y = 0, at = 0; y < tile.height(); y++, at += 3 * tile.width()) {
            writer.row(y, px, at);
        }
    }

    private static void render(SourcePixels source, Geometry g, RowSink writer, Scratch scratch) {
        MemorySegment pixels = source.data();
        boolean vector = Mac.useVector();  // once per image: the loops below branch on a constant
        // Coefficients are computed in the whole decoded image; the window is read at an offset.
        int width = source.fullWidth();
        int height = source.fullHeight();
        Geometry.Axis ax = g.x;
        Geometry.Axis ay = g.y;
        int outW = ax.imgEnd - ax.imgStart;
        int outH = ay.imgEnd - ay.imgStart;

        // Filter taps along each axis, source positions absolute.
        double sx = (double) width / g.sourceWidth();
        double sy = (double) height / g.sourceHeight();
        int ksx = kernelSize(ax.scale * sx);
        int ksy = kernelSize(ay.scale * sy);
        int[] bx = scratch.boundsX(2 * outW);
        int[] kx = scratch.weightsX(outW * ksx);
        int[] by = scratch.boundsY(2 * outH);
        int[] ky = scratch.weightsY(outH * ksy);
        coefficients(ax, sx, width, outW, bx, kx, ksx, scratch);
        coefficients(ay, sy, height, outH, by, ky, ksy, scratch);

        int xLo = Integer.MAX_VALUE;
        int xHi = 0;
        for (int i = 0; i < outW; i++) {
            xLo = Math.min(xLo, bx[2 * i]);
            xHi = Math.max(xHi, bx[2 * i] + bx[2 * i + 1]);
        }
        int yLo = Integer.MAX_VALUE;
        int yHi = 0;
        for (int j = 0; j < outH; j++) {
            yLo = Math.min(yLo, by[2 * j]);
            yHi = Math.max(yHi, by[2 * j] + by[2 * j + 1]);
        }
        if (xLo < source.left() || xHi > source.left() + source.width() || yLo < source.top()
                || yHi > source.top() + source.height()) {
            throw new IllegalArgumentException("the geometry reads columns [" + xLo + ", " + xHi + ") and rows [" + yLo
                    + ", " + yHi + ") of the decoded image, outside the window decoded, " + source);
        }

        // Horizontal pass: the needed source rows, each to outW pixels, rounded to 8 bits (as PIL).
        // Rows go BLOCK at a time, widened to int and transposed (column by column), so that an
        // output column is a weighted sum of whole source columns: loops over contiguous arrays
        // that Mac runs as SIMD, instead of a gather per output pixel. Integer sums do not depend
        // on their order: the result is PIL's to the bit.
        int rowLen = outW * 3;
        int[] tmp = scratch.intermediate(Math.max(1, (yHi - yLo) * rowLen));
        int spanPx = Math.max(0, xHi - xLo);
        int[] columns = scratch.columns(Math.max(1, spanPx * BLOCK * 3));
        int[] hacc = scratch.blockAcc(BLOCK * 3);
        byte[] src = scratch.sourceRow(Math.max(1, spanPx * 3 * BLOCK));
        long stride = 3L * source.width();
        for (int r0 = yLo; r0 < yHi; r0 += BLOCK) {
            int rows = Math.min(BLOCK, yHi - r0);
            for (int rr = 0; rr < rows; rr++) {
                MemorySegment.copy(pixels, ValueLayout.JAVA_BYTE, (r0 + rr - source.top()) * stride
                        + 3L * (xLo - source.left()), src, rr * spanPx * 3, spanPx * 3);
            }
            transpose(src, columns, spanPx, rows);
            horizontal(columns, rows, hacc, tmp, (r0 - yLo) * rowLen, rowLen, outW, bx, kx, ksx, xLo, vector);
        }

        // Vertical pass, one output row at a time, straight to the slot.
        int[] acc = scratch.acc(rowLen);
        byte[] out = scratch.outRow(rowLen);
        for (int y = 0; y < ay.imgStart; y++) {
            writer.paddingRow(y);
        }
        for (int j = 0; j < outH; j++) {
            vertical(tmp, by[2 * j] - yLo, by[2 * j + 1], ky, j * ksy, rowLen, acc, out, vector);
            writer.row(ay.imgStart + j, out, 0);
        }
        for (int y = ay.imgEnd; y < ay.size; y++) {
            writer.paddingRow(y);
        }
    }

    // The passes' loops are methods of their own, called per block of rows and per output row, so
    // that the JIT compiles them within a new JVM's first image: inside render, called once per
    // image, they ran interpreted (render too rarely called to be compiled, its loops left to
    // on-stack replacement) for most of a new JVM's first batch.

    /** {@code rows} source rows of {@code spanPx} RGB pixels in {@code src}, widened and stored column by column. */
    private static void transpose(byte[] src, int[] columns, int spanPx, int rows) {
        int rowBytes = spanPx * 3;
        // Column by column: sequential writes, reads from `rows` lines that stay in L1.
        for (int x = 0, o = 0; x < spanPx; x++) {
            for (int q = 3 * x, rr = 0; rr < rows; rr++, q += rowBytes, o += 3) {
                columns[o] = src[q] & 0xFF;
                columns[o + 1] = src[q + 1] & 0xFF;
                columns[o + 2] = src[q + 2] & 0xFF;
            }
        }
    }

    /** One block of {@code rows} transposed source rows to {@code outW} pixels each, into {@code tmp} from {@code at}. */
    private static void horizontal(int[] columns, int rows, int[] hacc, int[] tmp, int at, int rowLen, int outW,
                                   int[] bx, int[] kx, int ksx, int xLo, boolean vector) {
        int b3 = rows * 3;
        for (int i = 0; i < outW; i++) {
            java.util.Arrays.fill(hacc, 0, b3, HALF);
            int first = bx[2 * i] - xLo;
            int taps = bx[2 * i + 1];
            int k0 = i * ksx;
            for (int k = 0; k < taps; k++) {
                Mac.mac(vector, hacc, columns, (first + k) * b3, kx[k0 + k], b3);
            }
            for (int rr = 0, t = at + 3 * i, e = 0; rr < rows; rr++, t += rowLen, e += 3) {
                tmp[t] = clip(hacc[e]);
                tmp[t + 1] = clip(hacc[e + 1]);
                tmp[t + 2] = clip(hacc[e + 2]);
            }
        }
    }

    /** One output row: {@code taps} rows of {@code tmp} from row {@code first}, weighted by {@code ky[k0..]}, into {@code out}. */
    private static void vertical(int[] tmp, int first, int taps, int[] ky, int k0, int rowLen, int[] acc, byte[] out,
                                 boolean vector) {
        java.util.Arrays.fill(acc, 0, rowLen, HALF);
        for (int k = 0; k < taps; k++) {
            Mac.mac(vector, acc, tmp, (first + k) * rowLen, ky[k0 + k], rowLen);
        }
        for (int i = 0; i < rowLen; i++) {
            out[i] = clip8(acc[i]);
        }
    }

    private static int clip(int acc) {
        int v = acc >> PRECISION_BITS;
        return v < 0 ? 0 : Math.min(v, 255);
    }

    private static byte clip8(int acc) {
        int v = acc >> PRECISION_BITS;
        return (byte) (v < 0 ? 0 : Math.min(v, 255));
    }

    private static int kernelSize(double scale) {
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
        double support = filterscale;
        double ss = 1.0 / filterscale;
        double[] w = scratch.weights(ksize);
        for (int i = 0; i < count; i++) {
            double center = in0 + (i + a.shift + 0.5) * scale;
            int xmin = (int) (center - support + 0.5);
            if (xmin < 0) {
                xmin = 0;
            }
            int xmax = (int) (center + support + 0.5);
            if (xmax > inSize) {
                xmax = inSize;
            }
            xmax -= xmin;
            if (xmax < 0) {
                xmax = 0;
            }
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
    }

    private static double bilinear(double x) {
        if (x < 0.0) {
            x = -x;
        }
        return x < 1.0 ? 1.0 - x : 0.0;
    }
}
