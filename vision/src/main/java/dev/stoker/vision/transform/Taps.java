package dev.stoker.vision.transform;

/**
 * The filter taps of one render along both axes (PIL's coefficients, see
 * {@link Resampler#coefficients}), and the span of source columns and rows they read: what both
 * resampling loops ({@link ReferenceResampler}, {@link VectorResampler}) start from. Output
 * {@code i} along x reads {@code bx[2i + 1]} source columns from {@code bx[2i]} (absolute, in the
 * whole decoded image) with weights {@code kx[i * ksx ...]}; the same along y.
 */
final class Taps {
    final int outW;
    final int outH;
    final int ksx;
    final int ksy;
    final int[] bx;
    final int[] kx;
    final int[] by;
    final int[] ky;
    /** Source columns {@code [xLo, xHi)} and rows {@code [yLo, yHi)}: every tap lies inside. */
    final int xLo;
    final int xHi;
    final int yLo;
    final int yHi;

    private Taps(int outW, int outH, int ksx, int ksy, int[] bx, int[] kx, int[] by, int[] ky) {
        this.outW = outW;
        this.outH = outH;
        this.ksx = ksx;
        this.ksy = ksy;
        this.bx = bx;
        this.kx = kx;
        this.by = by;
        this.ky = ky;
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        for (int i = 0; i < outW; i++) {
            lo = Math.min(lo, bx[2 * i]);
            hi = Math.max(hi, bx[2 * i] + bx[2 * i + 1]);
        }
        xLo = lo;
        xHi = hi;
        lo = Integer.MAX_VALUE;
        hi = 0;
        for (int j = 0; j < outH; j++) {
            lo = Math.min(lo, by[2 * j]);
            hi = Math.max(hi, by[2 * j] + by[2 * j + 1]);
        }
        yLo = lo;
        yHi = hi;
    }

    /**
     * The taps of geometry {@code g} over {@code source}, in the scratch's arrays.
     *
     * @throws IllegalArgumentException when the source window misses pixels the geometry reads
     */
    static Taps of(SourcePixels source, Geometry g, Scratch scratch) {
        // Coefficients are computed in the whole decoded image; the window is read at an offset.
        int width = source.fullWidth();
        int height = source.fullHeight();
        Geometry.Axis ax = g.x;
        Geometry.Axis ay = g.y;
        int outW = ax.imgEnd - ax.imgStart;
        int outH = ay.imgEnd - ay.imgStart;
        double sx = (double) width / g.sourceWidth();
        double sy = (double) height / g.sourceHeight();
        int ksx = Resampler.kernelSize(ax.scale * sx);
        int ksy = Resampler.kernelSize(ay.scale * sy);
        int[] bx = scratch.boundsX(2 * outW);
        int[] kx = scratch.weightsX(outW * ksx);
        int[] by = scratch.boundsY(2 * outH);
        int[] ky = scratch.weightsY(outH * ksy);
        Resampler.coefficients(ax, sx, width, outW, bx, kx, ksx, scratch);
        Resampler.coefficients(ay, sy, height, outH, by, ky, ksy, scratch);
        Taps t = new Taps(outW, outH, ksx, ksy, bx, kx, by, ky);
        if (t.xLo < source.left() || t.xHi > source.left() + source.width() || t.yLo < source.top()
                || t.yHi > source.top() + source.height()) {
            throw new IllegalArgumentException("the geometry reads columns [" + t.xLo + ", " + t.xHi + ") and rows ["
                    + t.yLo + ", " + t.yHi + ") of the decoded image, outside the window decoded, " + source);
        }
        return t;
    }

    /** Source columns read: {@code xHi - xLo}, or 0. */
    int spanX() {
        return Math.max(0, xHi - xLo);
    }

    /** Source rows read. */
    int spanY() {
        return Math.max(0, yHi - yLo);
    }
}
