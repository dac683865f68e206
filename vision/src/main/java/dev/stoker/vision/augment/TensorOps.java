package dev.stoker.vision.augment;

import dev.stoker.vision.transform.Tile;

/**
 * The ops of torchvision 0.14's functional API on a uint8 tensor rather than a PIL image, where
 * their arithmetic differs from Pillow's: what {@link AugMix} runs, since torchvision's AugMix
 * turns a PIL image into a tensor first. Each follows torch 1.13's float32 steps one kernel at a
 * time (each tensor op rounds to float32; {@code .to(uint8)} truncates; {@code torch.round} is
 * half to even), so the output equals torchvision's to the bit, as {@code AugMixParityTest}
 * checks. Brightness, posterize, solarize and equalize come out the same on a tensor as on a PIL
 * image, so {@link PolicyOp#applyTensor} sends those to {@link Adjust}.
 */
final class TensorOps {
    private TensorOps() {}

    /** {@code F.affine(t, 0, [0, 0], 1, [degrees(atan(m)), 0], center=[0, 0])}: the origin at the top-left corner. */
    static void shearX(Tile tile, double magnitude, Interpolation interpolation, Fill fill) {
        double sx = Math.toRadians(Math.toDegrees(Math.atan(magnitude)));
        // tensor coordinates have (0, 0) at the image centre: the corner is at (-w/2, -h/2)
        grid(tile, Warp.inverseMatrix(-0.5 * tile.width(), -0.5 * tile.height(), 0, 0, 0, 1.0, sx, 0), interpolation, fill);
    }

    /** {@code F.affine(t, 0, [0, 0], 1, [0, degrees(atan(m))], center=[0, 0])}. */
    static void shearY(Tile tile, double magnitude, Interpolation interpolation, Fill fill) {
        double sy = Math.toRadians(Math.toDegrees(Math.atan(magnitude)));
        grid(tile, Warp.inverseMatrix(-0.5 * tile.width(), -0.5 * tile.height(), 0, 0, 0, 1.0, 0, sy), interpolation, fill);
    }

    /** {@code F.affine(t, 0, [dx, dy], 1, [0, 0])}. */
    static void translate(Tile tile, int dx, int dy, Interpolation interpolation, Fill fill) {
        grid(tile, Warp.inverseMatrix(0, 0, 0, dx, dy, 1.0, 0, 0), interpolation, fill);
    }

    /** {@code F.rotate(t, angle)}: counter-clockwise, about the centre, the same size (no transpose shortcut). */
    static void rotate(Tile tile, double angle, Interpolation interpolation, Fill fill) {
        grid(tile, Warp.inverseMatrix(0, 0, -angle, 0, 0, 1.0, 0, 0), interpolation, fill);
    }

    /**
     * torchvision's tensor {@code affine}: {@code _gen_affine_grid} (the float32 base grid times
     * theta over half the size, {@code bmm} as plain float32 multiply-adds), then
     * {@code grid_sample(align_corners=False, padding_mode="zeros")} as torch 1.13's AVX2 CPU
     * kernel computes it (the unnormalize and the bilinear sum as fused multiply-adds), then
     * {@code torch.round} to uint8. {@code m}: the inverse matrix, centre-relative. With a
     * {@link Fill.Color}, as {@code _apply_grid_transform}: a mask of ones sampled with the image,
     * then nearest pixels whose mask is under a half take the fill, and bilinear ones become
     * {@code v * mask + (1 - mask) * fill}, in float32.
     */
    static void grid(Tile tile, double[] m, Interpolation interpolation, Fill fill) {
        int w = tile.width();
        int h = tile.height();
        byte[] out = tile.pixels();
        byte[] in = tile.spare();
        System.arraycopy(out, 0, in, 0, tile.length());
        float hw = (float) (0.5 * w);
        float hh = (float) (0.5 * h);
        float r0x = (float) m[0] / hw;
        float r1x = (float) m[1] / hw;
        float r2x = (float) m[2] / hw;
        float r0y = (float) m[3] / hh;
        float r1y = (float) m[4] / hh;
        float r2y = (float) m[5] / hh;
        float sw = w / 2f;
        float sh = h / 2f;
        boolean bilinear = interpolation == Interpolation.BILINEAR;
        Fill.Color color = fill instanceof Fill.Color c ? c : null;
        byte[] fillBytes = color == null ? new byte[3]
                : new byte[] {(byte) roundClamp(color.red()), (byte) roundClamp(color.green()), (byte) roundClamp(color.blue())};
        for (int y = 0; y < h; y++) {
            float by = -h * 0.5f + 0.5f + y;
            for (int x = 0; x < w; x++) {
                float bx = -w * 0.5f + 0.5f + x;
                float gx = bx * r0x + by * r1x + r2x;    // Java rounds each step: no contraction, as torch's bmm
                float gy = bx * r0y + by * r1y + r2y;
                float ix = Math.fma(gx + 1f, sw, -0.5f);
                float iy = Math.fma(gy + 1f, sh, -0.5f);
                int o = 3 * (y * w + x);
                if (bilinear) {
                    bilinear(in, out, w, h, ix, iy, o, color);
                } else {
                    int xi = (int) Math.rint(ix);
                    int yi = (int) Math.rint(iy);
                    if (xi >= 0 && xi < w && yi >= 0 && yi < h && !Float.isNaN(ix) && !Float.isNaN(iy)) {
                        int at = 3 * (yi * w + xi);
                        out[o] = in[at];
                        out[o + 1] = in[at + 1];
                        out[o + 2] = in[at + 2];
                    } else {
                        out[o] = fillBytes[0];
                        out[o + 1] = fillBytes[1];
                        out[o + 2] = fillBytes[2];
                    }
                }
            }
        }
    }

    private static void bilinear(byte[] in, byte[] out, int w, int h, float ix, float iy, int o, Fill.Color fill) {
        float fx = (float) Math.floor(ix);
        float fy = (float) Math.floor(iy);
        float we = ix - fx;
        float e = 1f - we;
        float n = iy - fy;
        float s = 1f - n;
        float nw = s * e;
        float ne = s * we;
        float sw = n * e;
        float se = n * we;
        int x0 = (int) fx;
        int y0 = (int) fy;
        boolean x0in = x0 >= 0 && x0 < w;
        boolean x1in = x0 + 1 >= 0 && x0 + 1 < w;
        boolean y0in = y0 >= 0 && y0 < h;
        boolean y1in = y0 + 1 >= 0 && y0 + 1 < h;
        float mask = 0;
        if (fill != null) {    // the mask channel: ones where in the image, through the same kernel
            mask = x0in && y0in ? nw : 0f;
            mask = Math.fma(x1in && y0in ? 1f : 0f, ne, mask);
            mask = Math.fma(x0in && y1in ? 1f : 0f, sw, mask);
            mask = Math.fma(x1in && y1in ? 1f : 0f, se, mask);
        }
        for (int c = 0; c < 3; c++) {
            float a = x0in && y0in ? in[3 * (y0 * w + x0) + c] & 0xFF : 0f;
            float b = x1in && y0in ? in[3 * (y0 * w + x0 + 1) + c] & 0xFF : 0f;
            float cc = x0in && y1in ? in[3 * ((y0 + 1) * w + x0) + c] & 0xFF : 0f;
            float d = x1in && y1in ? in[3 * ((y0 + 1) * w + x0 + 1) + c] & 0xFF : 0f;
            float v = a * nw;
            v = Math.fma(b, ne, v);
            v = Math.fma(cc, sw, v);
            v = Math.fma(d, se, v);
            if (fill != null) {
                v = v * mask + (1f - mask) * fill.channel(c);    // Java rounds each step, as torch's tensor ops
            }
            out[o + c] = (byte) roundClamp(v);
        }
    }

    /** {@code F.adjust_saturation} on a tensor: a blend with its truncated float32 grey. */
    static void saturation(Tile tile, double factor) {
        Blend blend = new Blend(factor);
        byte[] px = tile.pixels();
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            int g = gray(px, i);
            px[i] = (byte) blend.of(px[i] & 0xFF, g);
            px[i + 1] = (byte) blend.of(px[i + 1] & 0xFF, g);
            px[i + 2] = (byte) blend.of(px[i + 2] & 0xFF, g);
        }
    }

    /**
     * {@code F.adjust_contrast} on a tensor: a blend with the float32 mean of the truncated grey
     * (the sum of whole numbers is exact in float32 below 2^24, an image of up to 65,793 pixels at
     * full white; beyond that torch's summation order could move the last bit).
     */
    static void contrast(Tile tile, double factor) {
        byte[] px = tile.pixels();
        long sum = 0;
        for (int i = 0, n = tile.length(); i < n; i += 3) {
            sum += gray(px, i);
        }
        float mean = (float) sum / (float) (tile.width() * tile.height());
        Blend blend = new Blend(factor);
        for (int i = 0, n = tile.length(); i < n; i++) {
            px[i] = (byte) blend.of(px[i] & 0xFF, mean);
        }
    }

    /**
     * {@code F.adjust_sharpness} on a tensor: the 3x3 smoothing kernel (1s, 5 in the middle, over
     * 13) by {@code conv2d}, rounded, the border kept, then a blend everywhere (the border too:
     * a blend of a value with itself can lose a level in float32). The smoothed value S/13 is
     * never within 1/26 of a half, so rounding it exactly gives torch's float32 result whatever
     * its summation order.
     */
    static void sharpness(Tile tile, double factor) {
        int w = tile.width();
        int h = tile.height();
        if (w <= 2 || h <= 2) {
            return;
        }
        byte[] px = tile.pixels();
        byte[] degenerate = tile.spare();
        System.arraycopy(px, 0, degenerate, 0, tile.length());
        int stride = 3 * w;
        for (int y = 1; y < h - 1; y++) {
            for (int x = 1; x < w - 1; x++) {
                for (int c = 0; c < 3; c++) {
                    int at = y * stride + 3 * x + c;
                    int s = 4 * (px[at] & 0xFF);
                    for (int dy = -1; dy <= 1; dy++) {
                        for (int dx = -1; dx <= 1; dx++) {
                            s += px[at + dy * stride + 3 * dx] & 0xFF;
                        }
                    }
                    degenerate[at] = (byte) Math.rint(s / 13.0);
                }
            }
        }
        Blend blend = new Blend(factor);
        for (int i = 0, n = tile.length(); i < n; i++) {
            px[i] = (byte) blend.of(px[i] & 0xFF, degenerate[i] & 0xFF);
        }
    }

    /** {@code F.autocontrast} on a tensor: per channel, {@code (v - min) * (255 / (max - min))} in float32, truncated. */
    static void autocontrast(Tile tile) {
        byte[] px = tile.pixels();
        int n = tile.length();
        for (int c = 0; c < 3; c++) {
            int lo = 255;
            int hi = 0;
            for (int i = c; i < n; i += 3) {
                int v = px[i] & 0xFF;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            if (hi == lo) {
                continue;    // torch's scale is infinite there: it keeps the channel
            }
            float scale = 255f / (float) (hi - lo);
            for (int i = c; i < n; i += 3) {
                px[i] = (byte) clampTruncate(((px[i] & 0xFF) - lo) * scale);
            }
        }
    }

    /** {@code rgb_to_grayscale} on a uint8 tensor: {@code 0.2989 r + 0.587 g + 0.114 b} in float32, truncated. */
    static int gray(byte[] px, int i) {
        return (int) (0.2989f * (px[i] & 0xFF) + 0.587f * (px[i + 1] & 0xFF) + 0.114f * (px[i + 2] & 0xFF));
    }

    /** torchvision's tensor {@code _blend(img1, img2, ratio)}: {@code ratio * img1 + (1 - ratio) * img2} in float32, clamped, truncated. */
    record Blend(float ratio, float rest) {
        Blend(double ratio) {
            this((float) ratio, (float) (1.0 - ratio));
        }

        int of(int v1, float v2) {
            return clampTruncate(ratio * v1 + rest * v2);
        }
    }

    /** {@code .clamp(0, 255).to(uint8)}. */
    static int clampTruncate(float v) {
        return v <= 0f ? 0 : v >= 255f ? 255 : (int) v;
    }

    /** {@code torch.round(v).to(uint8)}, clamped. */
    static int roundClamp(float v) {
        double r = Math.rint(v);
        return r <= 0 ? 0 : r >= 255 ? 255 : (int) r;
    }
}
