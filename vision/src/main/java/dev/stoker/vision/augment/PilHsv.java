package dev.stoker.vision.augment;

/**
 * Pillow's 8-bit HSV, as {@code Image.convert("HSV")} and back ({@code rgb2hsv_row} and
 * {@code hsv2rgb} in Pillow's Convert.c), with their mix of float and double arithmetic kept,
 * so that a hue shift gives Pillow's values to the bit.
 */
final class PilHsv {
    private PilHsv() {}

    /**
     * Shifts the hue of {@code n} bytes of pixels from {@code px[0]} by {@code shift} (mod 256):
     * {@link #shiftHueReference} for each pixel, with its divisions looked up. Pillow's hue of a
     * pixel depends only on which channel is the largest, which other one the smallest, the range
     * {@code max - min} and the middle value's distance from the max; its saturation only on the
     * max and the range; the way back's {@code p} only on the saturation and the value. Those are
     * tabulated once, by the reference code itself, so the pixels are the reference's to the bit.
     */
    static void shiftHue(byte[] px, int n, int shift) {
        byte[] hues = Tables.HUE;
        byte[] sats = Tables.SATURATION;
        byte[] ps = Tables.P;
        float[] fraction = Tables.FRACTION;
        float[] fsOf = Tables.FS;
        for (int i = 0; i < n; i += 3) {
            int r = px[i] & 0xFF;
            int g = px[i + 1] & 0xFF;
            int b = px[i + 2] & 0xFF;
            int maxc = Math.max(r, Math.max(g, b));
            int minc = Math.min(r, Math.min(g, b));
            if (maxc == minc) {
                continue;    // grey: saturation 0, the pixel comes back as it was
            }
            int cr = maxc - minc;
            int us = sats[(maxc << 8) | cr] & 0xFF;
            int uh = (hues[(hueCase(r, g, b, maxc, minc) << 16) | (cr << 8) | middleDistance(r, g, b, maxc, minc)]
                    + shift) & 0xFF;
            if (us == 0) {
                px[i] = (byte) maxc;
                px[i + 1] = (byte) maxc;
                px[i + 2] = (byte) maxc;
                continue;
            }
            int k = Tables.SECTOR[uh];
            float f = fraction[uh];
            float fs = fsOf[us];
            int v = maxc;
            int p = ps[(us << 8) | v] & 0xFF;
            int q = clip8((int) cRound((float) v * (1.0 - fs * f)));
            int t = clip8((int) cRound((float) v * (1.0 - fs * (1.0 - f))));
            writeSector(px, i, k, v, p, q, t);
        }
    }

    /**
     * Which branch of Pillow's hue a pixel takes (red, green or blue the max, tested in that
     * order) times which of the other two is the min: 0..5.
     */
    private static int hueCase(int r, int g, int b, int maxc, int minc) {
        if (r == maxc) {
            return b == minc ? 0 : 1;
        } else if (g == maxc) {
            return b == minc ? 2 : 3;
        }
        return r == minc ? 4 : 5;
    }

    /** The distance from the max of the channel that is neither the branch's max nor its min. */
    private static int middleDistance(int r, int g, int b, int maxc, int minc) {
        if (r == maxc) {
            return maxc - (b == minc ? g : b);
        } else if (g == maxc) {
            return maxc - (b == minc ? r : b);
        }
        return maxc - (r == minc ? g : r);
    }

    /** The tables of {@link #shiftHue}, made on first use by the reference code (about 0.5 MB). */
    private static final class Tables {
        /** Hue by case (6), range (1..255) and the middle's distance (0..range): [case << 16 | cr << 8 | d]. */
        static final byte[] HUE = new byte[6 << 16];
        /** Saturation by max and range: [max << 8 | cr]. */
        static final byte[] SATURATION = new byte[1 << 16];
        /** The way back's p by saturation and value: [us << 8 | v]. */
        static final byte[] P = new byte[1 << 16];
        static final int[] SECTOR = new int[256];
        static final float[] FRACTION = new float[256];
        static final float[] FS = new float[256];

        static {
            byte[] px = new byte[3];
            for (int cr = 1; cr < 256; cr++) {
                for (int d = 0; d <= cr; d++) {
                    // A pixel of each case with this range and distance (max 255 fits every one),
                    // its hue read back from the reference through a shift of 0 and the forward half.
                    int max = 255;
                    int min = max - cr;
                    int mid = max - d;
                    int[][] cases = {{max, mid, min}, {max, min, mid}, {mid, max, min}, {min, max, mid},
                            {min, mid, max}, {mid, min, max}};
                    for (int c = 0; c < 6; c++) {
                        HUE[(c << 16) | (cr << 8) | d] = (byte) hsv(cases[c][0], cases[c][1], cases[c][2])[0];
                    }
                }
            }
            for (int max = 1; max < 256; max++) {
                for (int cr = 1; cr <= max; cr++) {
                    SATURATION[(max << 8) | cr] = (byte) hsv(max, max - cr, max - cr)[1];
                }
            }
            for (int uh = 0; uh < 256; uh++) {
                SECTOR[uh] = ((int) Math.floor((float) uh * 6.0 / 255.0)) % 6;
                FRACTION[uh] = (float) ((float) uh * 6.0 / 255.0 - Math.floor((float) uh * 6.0 / 255.0));
            }
            for (int us = 0; us < 256; us++) {
                FS[us] = (float) ((float) us / 255.0);
                for (int v = 0; v < 256; v++) {
                    P[(us << 8) | v] = (byte) clip8((int) cRound((float) v * (1.0 - FS[us])));
                }
            }
        }
    }

    /** Pillow's {@code rgb2hsv_row} for one pixel: {uh, us, uv}. */
    static int[] hsv(int r, int g, int b) {
        int maxc = Math.max(r, Math.max(g, b));
        int minc = Math.min(r, Math.min(g, b));
        if (minc == maxc) {
            return new int[] {0, 0, maxc};
        }
        float cr = (float) (maxc - minc);
        float s = cr / (float) maxc;
        float h = sector(r, g, b, maxc, cr);
        h = (float) ((h / 6.0 + 1.0) % 1.0);   // C's fmod on doubles
        return new int[] {clip8((int) (h * 255.0)), clip8((int) (s * 255.0)), maxc};
    }

    /** Pillow's hue before it is scaled to [0, 1): in [-1, 5], from the channel that is the largest. */
    private static float sector(int r, int g, int b, int maxc, float cr) {
        float rc = (float) (maxc - r) / cr;
        float gc = (float) (maxc - g) / cr;
        float bc = (float) (maxc - b) / cr;
        if (r == maxc) {
            return bc - gc;
        } else if (g == maxc) {
            return (float) (2.0 + rc - bc);
        }
        return (float) (4.0 + gc - rc);
    }

    /** Converts pixel {@code px[i..i+2]} to HSV, adds {@code shift} to the hue (mod 256), and converts back. */
    static void shiftHueReference(byte[] px, int i, int shift) {
        int r = px[i] & 0xFF;
        int g = px[i + 1] & 0xFF;
        int b = px[i + 2] & 0xFF;
        int maxc = Math.max(r, Math.max(g, b));
        int minc = Math.min(r, Math.min(g, b));
        int uh;
        int us;
        int uv = maxc;
        if (minc == maxc) {
            uh = 0;
            us = 0;
        } else {
            float cr = (float) (maxc - minc);
            float s = cr / (float) maxc;
            float h = sector(r, g, b, maxc, cr);
            // C's fmod(h / 6.0 + 1.0, 1.0): h lies in [-1, 5], so the sum in [5/6, 11/6], where
            // the fmod is one exact subtraction (Java's % on doubles is a slow library call).
            double x = h / 6.0 + 1.0;
            h = (float) (x >= 1.0 ? x - 1.0 : x);
            uh = clip8((int) (h * 255.0));
            us = clip8((int) (s * 255.0));
        }
        uh = (uh + shift) & 0xFF;
        if (us == 0) {
            px[i] = (byte) uv;
            px[i + 1] = (byte) uv;
            px[i + 2] = (byte) uv;
            return;
        }
        int k = (int) Math.floor((float) uh * 6.0 / 255.0);
        float f = (float) ((float) uh * 6.0 / 255.0 - (float) k);
        float fs = (float) ((float) us / 255.0);
        int p = clip8((int) cRound((float) uv * (1.0 - fs)));
        int q = clip8((int) cRound((float) uv * (1.0 - fs * f)));
        int t = clip8((int) cRound((float) uv * (1.0 - fs * (1.0 - f))));
        writeSector(px, i, k % 6, uv, p, q, t);
    }

    /** Pillow's HSV to RGB: in hue sector {@code k} (0..5) the pixel is a permutation of v, p, q and t. */
    private static void writeSector(byte[] px, int i, int k, int v, int p, int q, int t) {
        int or;
        int og;
        int ob;
        switch (k) {
            case 0 -> { or = v; og = t; ob = p; }
            case 1 -> { or = q; og = v; ob = p; }
            case 2 -> { or = p; og = v; ob = t; }
            case 3 -> { or = p; og = q; ob = v; }
            case 4 -> { or = t; og = p; ob = v; }
            default -> { or = v; og = p; ob = q; }
        }
        px[i] = (byte) or;
        px[i + 1] = (byte) og;
        px[i + 2] = (byte) ob;
    }

    /** C's {@code round}: half away from zero. */
    private static double cRound(double x) {
        return x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5);
    }

    private static int clip8(int v) {
        return v < 0 ? 0 : Math.min(v, 255);
    }
}
