package dev.stoker.vision.augment;

/**
 * Pillow's 8-bit HSV, as {@code Image.convert("HSV")} and back ({@code rgb2hsv_row} and
 * {@code hsv2rgb} in Pillow's Convert.c), with their mix of float and double arithmetic kept,
 * so that a hue shift gives Pillow's values to the bit.
 */
final class PilHsv {
    private PilHsv() {}

    /** Converts pixel {@code px[i..i+2]} to HSV, adds {@code shift} to the hue (mod 256), and converts back. */
    static void shiftHue(byte[] px, int i, int shift) {
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
            float rc = (float) (maxc - r) / cr;
            float gc = (float) (maxc - g) / cr;
            float bc = (float) (maxc - b) / cr;
            float h;
            if (r == maxc) {
                h = bc - gc;
            } else if (g == maxc) {
                h = (float) (2.0 + rc - bc);
            } else {
                h = (float) (4.0 + gc - rc);
            }
            h = (float) ((h / 6.0 + 1.0) % 1.0);   // C's fmod on doubles
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
        int v = uv;
        int or;
        int og;
        int ob;
        switch (k % 6) {
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
