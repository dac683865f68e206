package dev.stoker.vision.transform;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The resampler's two passes as first written, one interleaved RGB row at a time: the path
 * without the Vector API (or with vectors narrower than 256 bits), and the reference
 * {@link VectorResampler} is tested against. Rows of the horizontal pass go {@link #BLOCK} at a
 * time, widened to int and transposed (column by column), so that an output column is a weighted
 * sum of whole source columns ({@link Mac}); the vertical pass sums whole intermediate rows.
 * Integer sums do not depend on their order: the result is PIL's to the bit.
 */
final class ReferenceResampler {
    /** Source rows per block of the horizontal pass: a column of 16 x 3 ints is three 512-bit vectors. */
    private static final int BLOCK = 16;

    private ReferenceResampler() {}

    static void render(SourcePixels source, Geometry g, Taps t, RowSink writer, Scratch scratch, boolean vector) {
        MemorySegment pixels = source.data();
        int outW = t.outW;
        int outH = t.outH;
        int[] bx = t.bx;
        int[] kx = t.kx;
        int[] by = t.by;
        int[] ky = t.ky;
        int xLo = t.xLo;
        int yLo = t.yLo;
        int yHi = t.yHi;

        // Horizontal pass: the needed source rows, each to outW pixels, rounded to 8 bits (as PIL).
        int rowLen = outW * 3;
        int[] tmp = scratch.intermediate(Math.max(1, (yHi - yLo) * rowLen));
        int spanPx = t.spanX();
        int[] columns = scratch.columns(Math.max(1, spanPx * BLOCK * 3));
        int[] hacc = scratch.blockAcc(BLOCK * 3);
        byte[] src = scratch.sourceRow(Math.max(1, spanPx * 3 * BLOCK));
        long stride = 3L * source.width();
        for (int r0 = yLo; r0 < yHi; r0 += BLOCK) {
            int rows = Math.min(BLOCK, yHi - r0);
            int rowBytes = spanPx * 3;
            for (int rr = 0; rr < rows; rr++) {
                MemorySegment.copy(pixels, ValueLayout.JAVA_BYTE, (r0 + rr - source.top()) * stride
                        + 3L * (xLo - source.left()), src, rr * rowBytes, rowBytes);
            }
            transpose(src, columns, spanPx, rows);
            horizontal(columns, rows, hacc, tmp, (r0 - yLo) * rowLen, rowLen, outW, bx, kx, t.ksx, xLo, vector);
        }

        // Vertical pass, one output row at a time, straight to the writer.
        Geometry.Axis ay = g.y;
        int[] acc = scratch.acc(rowLen);
        byte[] out = scratch.outRow(rowLen);
        for (int y = 0; y < ay.imgStart; y++) {
            writer.paddingRow(y);
        }
        for (int j = 0; j < outH; j++) {
            vertical(tmp, by[2 * j] - yLo, by[2 * j + 1], ky, j * t.ksy, rowLen, acc, out, vector);
            writer.row(ay.imgStart + j, out, 0);
        }
        for (int y = ay.imgEnd; y < ay.size; y++) {
            writer.paddingRow(y);
        }
    }

    // The passes' loops are methods of their own, called per block of rows and per output row, so
    // that the JIT compiles each of them, small, within a new JVM's first images. Inside render,
    // called once per image, they ran in C1's profiled code until C2 had compiled all of render
    // (25 kB, on-stack replacement twice and once whole: 70-130 ms of a core each time) for most
    // of W3's cold first batch, this path being the one a new JVM renders with (Mac.vectorNow).

    /** {@code rows} source rows of {@code spanPx} RGB pixels in {@code src}, widened and stored column by column. */
    private static void transpose(byte[] src, int[] columns, int spanPx, int rows) {
        int rowBytes = spanPx * 3;
        // Column by column: sequential writes, reads from `rows` lines that stay in L1.
        for (int x = 0; x < spanPx; x++) {
            transposeColumn(src, 3 * x, rowBytes, columns, x * rows * 3, rows);
        }
    }

    /**
     * One column of {@link #transpose}: a method of its own with a short loop, called once per
     * source column, so that a new JVM's first image runs it compiled after a few hundred columns
     * rather than interpreted until an on-stack compilation of transpose.
     */
    private static void transposeColumn(byte[] src, int q, int rowBytes, int[] columns, int o, int rows) {
        for (int rr = 0; rr < rows; rr++, q += rowBytes, o += 3) {
            columns[o] = src[q] & 0xFF;
            columns[o + 1] = src[q + 1] & 0xFF;
            columns[o + 2] = src[q + 2] & 0xFF;
        }
    }

    /** One block of {@code rows} transposed source rows to {@code outW} pixels each, into {@code tmp} from {@code at}. */
    private static void horizontal(int[] columns, int rows, int[] hacc, int[] tmp, int at, int rowLen, int outW,
                                   int[] bx, int[] kx, int ksx, int xLo, boolean vector) {
        int b3 = rows * 3;
        for (int i = 0; i < outW; i++) {
            column(columns, b3, hacc, tmp, at + 3 * i, rowLen, bx[2 * i] - xLo, bx[2 * i + 1], kx, i * ksx, vector);
        }
    }

    /**
     * One output column of a block: {@code taps} source columns from {@code first}, weighted by
     * {@code kx[k0..]}, into {@code tmp} from {@code q}, one pixel per row. A method of its own,
     * with short loops, called once per output column, so that the JIT compiles it whole early on
     * (inside horizontal's loop it cost C2 three on-stack compilations of horizontal during a new
     * JVM's first batch, 25-60 ms of a core each, on a machine whose two cores the workers share).
     */
    private static void column(int[] columns, int b3, int[] hacc, int[] tmp, int q, int rowLen, int first, int taps,
                               int[] kx, int k0, boolean vector) {
        java.util.Arrays.fill(hacc, 0, b3, Resampler.HALF);
        for (int k = 0; k < taps; k++) {
            Mac.mac(vector, hacc, columns, (first + k) * b3, kx[k0 + k], b3);
        }
        for (int e = 0; e < b3; e += 3, q += rowLen) {
            tmp[q] = Resampler.clip(hacc[e]);
            tmp[q + 1] = Resampler.clip(hacc[e + 1]);
            tmp[q + 2] = Resampler.clip(hacc[e + 2]);
        }
    }

    /** One output row: {@code taps} rows of {@code tmp} from row {@code first}, weighted by {@code ky[k0..]}, into {@code out}. */
    private static void vertical(int[] tmp, int first, int taps, int[] ky, int k0, int rowLen, int[] acc, byte[] out,
                                 boolean vector) {
        java.util.Arrays.fill(acc, 0, rowLen, Resampler.HALF);
        for (int k = 0; k < taps; k++) {
            Mac.mac(vector, acc, tmp, (first + k) * rowLen, ky[k0 + k], rowLen);
        }
        for (int i = 0; i < rowLen; i++) {
            out[i] = (byte) Resampler.clip(acc[i]);
        }
    }
}
