package dev.stoker.vision.augment;

import dev.stoker.vision.transform.Tile;

/**
 * The functional forms of the pixel ops, in place on a {@link Tile}: torchvision's
 * {@code transforms.functional} on a PIL image (Pillow 9.4), with the random parameters given.
 * Each follows Pillow's arithmetic (its 8-bit grey, its float blend, its HSV conversion, its
 * lookup tables), so the output equals torchvision's to the bit; {@link #gaussianBlur} is promised
 * within one level (torch's float32 sum has its own order). {@code docs/vision-recipes.md} has
 * the table.
 *
 * <pre>{@code
 * Adjust.brightness(tile, 1.3);      // F.adjust_brightness(img, 1.3)
 * Adjust.hue(tile, -0.05);           // F.adjust_hue(img, -0.05)
 * }</pre>
 */
public final class Adjust {
    /** The blur's intermediate rows, kept per thread: a 224 tile's are 1.2 MB, too much to allocate per image. */
    private static final ThreadLocal<double[]> BLUR_ROWS = ThreadLocal.withInitial(() -> new double[0]);

    private Adjust() {}

    /** {@code F.adjust_brightness}: a blend with black ({@code ImageEnhance.Brightness}). */
    public static void brightness(Tile tile, double factor) {
        checkFactor("brightness", factor);
        int[] lut = new int[256];
        float alpha = (float) factor;
        for (int v = 0; v < 256; v++) {
            lut[v] = blend(0, v, alpha);
        }
        applyLut(tile, lut);
    }

    /**
     * {@code F.adjust_contrast}: a blend with the grey of the image's mean luma, rounded
     * ({@code ImageEnhance.Contrast}).
     */
    public static void contrast(Tile tile, double factor) {
        checkFactor("contrast", factor);
        byte[] px = tile.pixels();
        long sum = 0;
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            sum += luma(px, i);
        }
        int mean = (int) ((double) sum / (tile.width() * tile.height()) + 0.5);
        int[] lut = new int[256];
        float alpha = (float) factor;
        for (int v = 0; v < 256; v++) {
            lut[v] = blend(mean, v, alpha);
        }
        applyLut(tile, lut);
    }

    /** {@code F.adjust_saturation}: a blend with the image's own grey ({@code ImageEnhance.Color}). */
    public static void saturation(Tile tile, double factor) {
        checkFactor("saturation", factor);
        byte[] px = tile.pixels();
        float alpha = (float) factor;
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            int l = luma(px, i);
            px[i] = (byte) blend(l, px[i] & 0xFF, alpha);
            px[i + 1] = (byte) blend(l, px[i + 1] & 0xFF, alpha);
            px[i + 2] = (byte) blend(l, px[i + 2] & 0xFF, alpha);
        }
    }

    /**
     * {@code F.adjust_hue}, {@code factor} in [-0.5, 0.5]: to Pillow's 8-bit HSV, the hue shifted
     * by {@code uint8(factor * 255)} with wrap-around, and back.
     */
    public static void hue(Tile tile, double factor) {
        if (!(factor >= -0.5 && factor <= 0.5)) {
            throw new IllegalArgumentException("a hue factor is in [-0.5, 0.5], not " + factor);
        }
        int shift = ((int) (factor * 255)) & 0xFF;   // numpy's uint8(x): truncate, then wrap
        PilHsv.shiftHue(tile.pixels(), tile.length(), shift);
    }

    /**
     * {@code F.adjust_sharpness}: a blend with Pillow's {@code SMOOTH} 3x3 filter of the image
     * ({@code ImageEnhance.Sharpness}); the border pixels stay as they are, as in Pillow.
     */
    public static void sharpness(Tile tile, double factor) {
        checkFactor("sharpness", factor);
        int w = tile.width();
        int h = tile.height();
        if (w < 3 || h < 3) {
            return;    // Pillow's filter leaves a border of one pixel: nothing inside it
        }
        byte[] px = tile.pixels();
        byte[] src = tile.spare();
        System.arraycopy(px, 0, src, 0, tile.length());
        float alpha = (float) factor;
        int stride = 3 * w;
        for (int y = 1; y < h - 1; y++) {
            // The row's interior, pixels 1 .. w - 2: 3 (w - 2) values in a row.
            int from = y * stride + 3;
            int n = 3 * (w - 2);
            int done = Lanes.WIDE ? VectorSharpness.row(src, px, from, n, stride, alpha) : 0;
            for (int at = from + done; at < from + n; at++) {
                px[at] = (byte) sharpened(src, at, stride, alpha);
            }
        }
    }

    /** Value {@code at} of a sharpened image, from the source {@code src} with rows {@code stride} bytes apart. */
    static int sharpened(byte[] src, int at, int stride, float alpha) {
        float k = 1f / 13f;
        float k5 = 5f / 13f;
        int below = at + stride;
        int above = at - stride;
        // Pillow's order: the row below, this row, the row above; each left, middle, right.
        float ss = 0f;
        ss += (src[below - 3] & 0xFF) * k + (src[below] & 0xFF) * k + (src[below + 3] & 0xFF) * k;
        ss += (src[at - 3] & 0xFF) * k + (src[at] & 0xFF) * k5 + (src[at + 3] & 0xFF) * k;
        ss += (src[above - 3] & 0xFF) * k + (src[above] & 0xFF) * k + (src[above + 3] & 0xFF) * k;
        int smooth = clip8(ss + 0.5f);   // Pillow's 3x3 filter rounds half up
        return blend(smooth, src[at] & 0xFF, alpha);
    }

    /** {@code F.rgb_to_grayscale(img, 3)}: Pillow's 8-bit luma, in all three channels. */
    public static void grayscale(Tile tile) {
        byte[] px = tile.pixels();
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            byte l = (byte) luma(px, i);
            px[i] = l;
            px[i + 1] = l;
            px[i + 2] = l;
        }
    }

    /** {@code F.invert} ({@code ImageOps.invert}): every value v becomes 255 - v. */
    public static void invert(Tile tile) {
        byte[] px = tile.pixels();
        for (int i = 0, n = tile.length(); i < n; i++) {
            px[i] = (byte) ~px[i];
        }
    }

    /** {@code F.solarize}: values at or above {@code threshold} are inverted. */
    public static void solarize(Tile tile, double threshold) {
        int[] lut = new int[256];
        for (int v = 0; v < 256; v++) {
            lut[v] = v < threshold ? v : 255 - v;
        }
        applyLut(tile, lut);
    }

    /** {@code F.posterize}: keeps the top {@code bits} bits (0 to 8) of each value. */
    public static void posterize(Tile tile, int bits) {
        if (bits < 0 || bits > 8) {
            throw new IllegalArgumentException("posterize keeps 0 to 8 bits, not " + bits);
        }
        int mask = ~((1 << (8 - bits)) - 1);
        int[] lut = new int[256];
        for (int v = 0; v < 256; v++) {
            lut[v] = v & mask & 0xFF;
        }
        applyLut(tile, lut);
    }

    /**
     * {@code F.autocontrast} ({@code ImageOps.autocontrast}, no cutoff): each channel stretched
     * so that its darkest value becomes 0 and its lightest 255.
     */
    public static void autocontrast(Tile tile) {
        int[][] hist = histograms(tile);
        int[][] luts = new int[3][256];
        for (int c = 0; c < 3; c++) {
            int[] h = hist[c];
            int lo = 0;
            while (lo < 256 && h[lo] == 0) {
                lo++;
            }
            int hi = 255;
            while (hi >= 0 && h[hi] == 0) {
                hi--;
            }
            for (int v = 0; v < 256; v++) {
                if (hi <= lo) {
                    luts[c][v] = v;
                } else {
                    double scale = 255.0 / (hi - lo);
                    double offset = -lo * scale;
                    int o = (int) (v * scale + offset);
                    luts[c][v] = Math.max(0, Math.min(255, o));
                }
            }
        }
        applyLuts(tile, luts);
    }

    /** {@code F.equalize} ({@code ImageOps.equalize}): each channel's histogram made flat, with Pillow's steps. */
    public static void equalize(Tile tile) {
        int[][] hist = histograms(tile);
        int[][] luts = new int[3][256];
        for (int c = 0; c < 3; c++) {
            int[] h = hist[c];
            long total = 0;
            int nonZero = 0;
            int last = 0;
            for (int v = 0; v < 256; v++) {
                if (h[v] != 0) {
                    total += h[v];
                    nonZero++;
                    last = h[v];
                }
            }
            long step = nonZero <= 1 ? 0 : (total - last) / 255;
            if (step == 0) {
                for (int v = 0; v < 256; v++) {
                    luts[c][v] = v;
                }
            } else {
                long n = step / 2;
                for (int v = 0; v < 256; v++) {
                    luts[c][v] = (int) Math.min(255, n / step);
                    n += h[v];
                }
            }
        }
        applyLuts(tile, luts);
    }

    /**
     * {@code F.gaussian_blur(img, [k, k], [sigma, sigma])}: torchvision blurs a PIL image as a
     * float32 tensor (reflect padding, the float32 kernel of {@code _get_gaussian_kernel2d}), then
     * rounds half to even. Summed here in double, so a value may differ by one where torch's
     * float32 sum lands on the other side of a half (none does in the parity fixtures).
     */
    public static void gaussianBlur(Tile tile, int kernelSize, double sigma) {
        gaussianBlur(tile, kernelSize, kernelSize, sigma);
    }

    /** {@code F.gaussian_blur(img, [kx, ky], [sigma, sigma])}: {@code kx} across, {@code ky} down. */
    public static void gaussianBlur(Tile tile, int kx, int ky, double sigma) {
        if (kx < 1 || kx % 2 == 0 || ky < 1 || ky % 2 == 0) {
            throw new IllegalArgumentException("a blur kernel size is odd and positive, not " + kx + "x" + ky);
        }
        if (!(sigma > 0)) {
            throw new IllegalArgumentException("a blur sigma is positive, not " + sigma);
        }
        int w = tile.width();
        int h = tile.height();
        int halfX = kx / 2;
        int halfY = ky / 2;
        if (halfX >= w || halfY >= h) {
            throw new IllegalArgumentException("a blur kernel of " + kx + "x" + ky + " needs an image larger than half"
                    + " of it, not " + w + "x" + h + " (reflect padding)");
        }
        float[] kernelX = gaussianKernel(kx, (float) sigma);
        float[] kernelY = ky == kx ? kernelX : gaussianKernel(ky, (float) sigma);
        byte[] px = tile.pixels();
        // Separable: rows, then columns, summed in double (torch sums the 2-D float32 kernel, whose
        // weights are the float32 products kernelY[i] * kernelX[j]; the difference stays far below a half).
        double[] rows = blurRows(3 * w * h);
        for (int y = 0; y < h; y++) {
            int base = 3 * y * w;
            for (int x = 0; x < w; x++) {
                double s0 = 0;
                double s1 = 0;
                double s2 = 0;
                for (int j = 0; j < kx; j++) {
                    int at = base + 3 * reflect(x + j - halfX, w);
                    double kv = kernelX[j];
                    s0 += kv * (px[at] & 0xFF);
                    s1 += kv * (px[at + 1] & 0xFF);
                    s2 += kv * (px[at + 2] & 0xFF);
                }
                int o = base + 3 * x;
                rows[o] = s0;
                rows[o + 1] = s1;
                rows[o + 2] = s2;
            }
        }
        int stride = 3 * w;
        for (int y = 0; y < h; y++) {
            for (int i = 0, n = stride; i < n; i++) {
                double acc = 0;
                for (int k = 0; k < ky; k++) {
                    acc += kernelY[k] * rows[reflect(y + k - halfY, h) * stride + i];
                }
                px[y * stride + i] = (byte) roundClip(acc);
            }
        }
    }

    private static double[] blurRows(int n) {
        double[] rows = BLUR_ROWS.get();
        if (rows.length < n) {
            rows = new double[n];
            BLUR_ROWS.set(rows);
        }
        return rows;
    }

    /** torchvision's {@code _get_gaussian_kernel1d}, in float32 as torch computes it. */
    static float[] gaussianKernel(int size, float sigma) {
        float half = (size - 1) * 0.5f;
        float[] k = new float[size];
        float sum = 0f;
        for (int i = 0; i < size; i++) {
            // torch.linspace(-half, half, size): start + i * step, the upper half from the end
            float step = size == 1 ? 0f : (2 * half) / (size - 1);
            float x = i < size / 2 ? -half + i * step : half - (size - 1 - i) * step;
            float t = x / sigma;
            k[i] = (float) Math.exp(-0.5f * (t * t));
            sum += k[i];
        }
        for (int i = 0; i < size; i++) {
            k[i] /= sum;
        }
        return k;
    }

    private static int reflect(int i, int n) {
        if (i < 0) {
            return -i;
        }
        return i >= n ? 2 * (n - 1) - i : i;
    }

    private static int roundClip(double v) {
        long r = Math.round(Math.rint(v));  // torch.round: half to even
        return (int) Math.max(0, Math.min(255, r));
    }

    /** Pillow's 8-bit luma ({@code L24}): {@code (19595 R + 38470 G + 7471 B + 0x8000) >> 16}. */
    static int luma(byte[] px, int i) {
        return ((px[i] & 0xFF) * 19595 + (px[i + 1] & 0xFF) * 38470 + (px[i + 2] & 0xFF) * 7471 + 0x8000) >> 16;
    }

    /**
     * Pillow's {@code ImagingBlend} of one value: {@code in1 + alpha * (in2 - in1)} in float,
     * truncated; clipped to 0..255 when {@code alpha} is outside [0, 1].
     */
    static int blend(int in1, int in2, float alpha) {
        float t = in1 + alpha * (in2 - in1);
        if (alpha >= 0f && alpha <= 1f) {
            return (int) t;
        }
        return clip8(t);
    }

    /** Pillow's {@code clip8} of a float: 0 at or below 0, 255 at or above 255, else truncated. */
    static int clip8(float v) {
        if (v <= 0f) {
            return 0;
        }
        if (v >= 255f) {
            return 255;
        }
        return (int) v;
    }

    private static void checkFactor(String what, double factor) {
        if (!(factor >= 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("a " + what + " factor is non-negative, not " + factor);
        }
    }

    private static int[][] histograms(Tile tile) {
        int[][] h = new int[3][256];
        byte[] px = tile.pixels();
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            h[0][px[i] & 0xFF]++;
            h[1][px[i + 1] & 0xFF]++;
            h[2][px[i + 2] & 0xFF]++;
        }
        return h;
    }

    private static void applyLut(Tile tile, int[] lut) {
        byte[] px = tile.pixels();
        for (int i = 0, n = tile.length(); i < n; i++) {
            px[i] = (byte) lut[px[i] & 0xFF];
        }
    }

    private static void applyLuts(Tile tile, int[][] luts) {
        byte[] px = tile.pixels();
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            px[i] = (byte) luts[0][px[i] & 0xFF];
            px[i + 1] = (byte) luts[1][px[i + 1] & 0xFF];
            px[i + 2] = (byte) luts[2][px[i + 2] & 0xFF];
        }
    }
}
