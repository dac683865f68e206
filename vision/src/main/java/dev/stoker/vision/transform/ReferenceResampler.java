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
            int b3 = rows * 3;
            int rowBytes = spanPx * 3;
            for (int rr = 0; rr < rows; rr++) {
                MemorySegment.copy(pixels, ValueLayout.JAVA_BYTE, (r0 + rr - source.top()) * stride
                        + 3L * (xLo - source.left()), src, rr * rowBytes, rowBytes);
            }
            // Column by column: sequential writes, reads from `rows` lines that stay in L1.
            for (int x = 0, o = 0; x < spanPx; x++) {
                for (int q = 3 * x, rr = 0; rr < rows; rr++, q += rowBytes, o += 3) {
                    columns[o] = src[q] & 0xFF;
                    columns[o + 1] = src[q + 1] & 0xFF;
                    columns[o + 2] = src[q + 2] & 0xFF;
                }
            }
            int at = (r0 - yLo) * rowLen;
            for (int i = 0; i < outW; i++) {
                java.util.Arrays.fill(hacc, 0, b3, Resampler.HALF);
                int first = bx[2 * i] - xLo;
                int taps = bx[2 * i + 1];
                int k0 = i * t.ksx;
                for (int k = 0; k < taps; k++) {
                    Mac.mac(vector, hacc, columns, (first + k) * b3, kx[k0 + k], b3);
                }
                for (int rr = 0, q = at + 3 * i, e = 0; rr < rows; rr++, q += rowLen, e += 3) {
                    tmp[q] = Resampler.clip(hacc[e]);
                    tmp[q + 1] = Resampler.clip(hacc[e + 1]);
                    tmp[q + 2] = Resampler.clip(hacc[e + 2]);
                }
            }
        }

        // Vertical pass, one output row at a time, straight to the writer.
        Geometry.Axis ay = g.y;
        int[] acc = scratch.acc(rowLen);
        byte[] out = scratch.outRow(rowLen);
        for (int y = 0; y < ay.imgStart; y++) {
            writer.paddingRow(y);
        }
        for (int j = 0; j < outH; j++) {
            java.util.Arrays.fill(acc, 0, rowLen, Resampler.HALF);
            int first = by[2 * j] - yLo;
            int taps = by[2 * j + 1];
            for (int k = 0; k < taps; k++) {
                Mac.mac(vector, acc, tmp, (first + k) * rowLen, ky[j * t.ksy + k], rowLen);
            }
            for (int i = 0; i < rowLen; i++) {
                out[i] = (byte) Resampler.clip(acc[i]);
            }
            writer.row(ay.imgStart + j, out, 0);
        }
        for (int y = ay.imgEnd; y < ay.size; y++) {
            writer.paddingRow(y);
        }
    }
}
