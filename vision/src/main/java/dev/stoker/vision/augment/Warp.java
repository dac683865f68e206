package dev.stoker.vision.augment;

import dev.stoker.vision.transform.Tile;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The geometric ops of the auto-augment policies, {@code RandomRotation} and {@code RandomAffine},
 * on the output {@link Tile}, black or {@link Fill}ed where the warp uncovers: torchvision's {@code F.affine} and {@code F.rotate}
 * on a PIL image, which are Pillow's {@code Image.transform(AFFINE)} (nearest: its 16.16
 * fixed-point loop, or its scale-only loop for a pure translation; bilinear: its generic
 * transform) and {@code Image.rotate} (with its exact fast paths for 0, 180, and 90 and 270
 * degrees on a square image). These run after the one resample, on its
 * output, as torchvision runs them after {@code RandomResizedCrop}: they are not folded into the
 * resample, which would change the pixels.
 *
 * <pre>{@code
 * Warp.rotate(tile, 30.0);                 // F.rotate(img, 30.0)
 * Warp.shearX(tile, 0.3);                  // TrivialAugmentWide's ShearX of magnitude 0.3
 * Warp.translate(tile, -12, 0);            // F.affine(img, 0, [-12, 0], 1, [0, 0])
 * Warp.affine(tile, 10, 3, -2, 1.2, 5, 0); // F.affine(img, 10, [3, -2], 1.2, [5, 0])
 * }</pre>
 *
 * <p>A {@link Fill} is Pillow's {@code fillcolor}, as torchvision's {@code _parse_fill} makes it
 * from a PIL image's {@code fill}: each value truncated to a whole number ({@code int(v)}), set
 * where the warp has no input; {@link Fill#NONE} is black, as torchvision's {@code None} and 0.
 */
public final class Warp {
    private Warp() {}

    /** {@code F.affine(img, 0, [0, 0], 1, [degrees(atan(m)), 0], NEAREST, center=[0, 0])}: the auto-augment ShearX. */
    public static void shearX(Tile tile, double magnitude) {
        shearX(tile, magnitude, Interpolation.NEAREST);
    }

    /** As {@link #shearX(Tile, double)}, with {@code interpolation}. */
    public static void shearX(Tile tile, double magnitude, Interpolation interpolation) {
        shearX(tile, magnitude, interpolation, Fill.NONE);
    }

    /** As {@link #shearX(Tile, double)}, with {@code interpolation} and {@code fill}. */
    public static void shearX(Tile tile, double magnitude, Interpolation interpolation, Fill fill) {
        double sx = Math.toRadians(Math.toDegrees(Math.atan(magnitude)));
        affine(tile, inverseMatrix(0, 0, 0, 0, 0, 1.0, sx, 0), interpolation, fill);
    }

    /** {@code F.affine(img, 0, [0, 0], 1, [0, degrees(atan(m))], NEAREST, center=[0, 0])}: the auto-augment ShearY. */
    public static void shearY(Tile tile, double magnitude) {
        shearY(tile, magnitude, Interpolation.NEAREST);
    }

    /** As {@link #shearY(Tile, double)}, with {@code interpolation}. */
    public static void shearY(Tile tile, double magnitude, Interpolation interpolation) {
        shearY(tile, magnitude, interpolation, Fill.NONE);
    }

    /** As {@link #shearY(Tile, double)}, with {@code interpolation} and {@code fill}. */
    public static void shearY(Tile tile, double magnitude, Interpolation interpolation, Fill fill) {
        double sy = Math.toRadians(Math.toDegrees(Math.atan(magnitude)));
        affine(tile, inverseMatrix(0, 0, 0, 0, 0, 1.0, 0, sy), interpolation, fill);
    }

    /** {@code F.affine(img, 0, [dx, dy], 1, [0, 0])}: the image moved by whole pixels. */
    public static void translate(Tile tile, int dx, int dy) {
        translate(tile, dx, dy, Interpolation.NEAREST);
    }

    /** As {@link #translate(Tile, int, int)}, with {@code interpolation} (whole pixels: the same pixels either way). */
    public static void translate(Tile tile, int dx, int dy, Interpolation interpolation) {
        translate(tile, dx, dy, interpolation, Fill.NONE);
    }

    /** As {@link #translate(Tile, int, int)}, with {@code interpolation} and {@code fill}. */
    public static void translate(Tile tile, int dx, int dy, Interpolation interpolation, Fill fill) {
        affine(tile, inverseMatrix(tile.width() * 0.5, tile.height() * 0.5, 0, dx, dy, 1.0, 0, 0), interpolation, fill);
    }

    /**
     * {@code F.affine(img, angle, [dx, dy], scale, [shearX, shearY])} about the centre (angles in
     * degrees, clockwise for positive {@code angle} as torchvision's), nearest neighbours, black fill.
     */
    public static void affine(Tile tile, double angle, int dx, int dy, double scale, double shearX, double shearY) {
        affine(tile, angle, dx, dy, scale, shearX, shearY, Interpolation.NEAREST);
    }

    /** As {@link #affine(Tile, double, int, int, double, double, double)}, with {@code interpolation}. */
    public static void affine(Tile tile, double angle, int dx, int dy, double scale, double shearX, double shearY,
                              Interpolation interpolation) {
        affine(tile, angle, dx, dy, scale, shearX, shearY, interpolation, Fill.NONE);
    }

    /** As {@link #affine(Tile, double, int, int, double, double, double)}, with {@code interpolation} and {@code fill}. */
    public static void affine(Tile tile, double angle, int dx, int dy, double scale, double shearX, double shearY,
                              Interpolation interpolation, Fill fill) {
        affine(tile, angle, dx, dy, scale, shearX, shearY, interpolation, fill, Center.IMAGE);
    }

    /** As {@link #affine(Tile, double, int, int, double, double, double)}, about {@code center}. */
    public static void affine(Tile tile, double angle, int dx, int dy, double scale, double shearX, double shearY,
                              Interpolation interpolation, Fill fill, Center center) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("an affine scale is positive, not " + scale);
        }
        double cx = center instanceof Center.Point p ? p.x() : tile.width() * 0.5;
        double cy = center instanceof Center.Point p ? p.y() : tile.height() * 0.5;
        affine(tile, inverseMatrix(cx, cy, angle, dx, dy, scale, Math.toRadians(shearX), Math.toRadians(shearY)),
                interpolation, fill);
    }

    /** {@code F.rotate(img, angle)}: counter-clockwise by {@code angle} degrees about the centre, the same size. */
    public static void rotate(Tile tile, double angle) {
        rotate(tile, angle, Interpolation.NEAREST);
    }

    /** As {@link #rotate(Tile, double)}, with {@code interpolation} (0, 90, 180 and 270 degrees move whole pixels). */
    public static void rotate(Tile tile, double angle, Interpolation interpolation) {
        rotate(tile, angle, interpolation, Fill.NONE);
    }

    /** As {@link #rotate(Tile, double)}, with {@code interpolation} and {@code fill}. */
    public static void rotate(Tile tile, double angle, Interpolation interpolation, Fill fill) {
        rotate(tile, angle, interpolation, fill, Center.IMAGE);
    }

    /** As {@link #rotate(Tile, double)}, about {@code center} (a point given: no transpose shortcut, as Pillow). */
    public static void rotate(Tile tile, double angle, Interpolation interpolation, Fill fill, Center center) {
        double a = angle % 360.0;
        if (a < 0) {
            a += 360.0;    // Python's modulo
        }
        int w = tile.width();
        int h = tile.height();
        boolean shortcuts = !(center instanceof Center.Point);
        if (a == 0 && shortcuts) {
            return;
        }
        if (shortcuts && (a == 180 || ((a == 90 || a == 270) && w == h))) {
            transpose(tile, (int) a);
            return;
        }
        double r = -Math.toRadians(a);
        double[] m = {round15(Math.cos(r)), round15(Math.sin(r)), 0.0, round15(-Math.sin(r)), round15(Math.cos(r)), 0.0};
        double cx = center instanceof Center.Point p ? p.x() : w / 2.0;
        double cy = center instanceof Center.Point p ? p.y() : h / 2.0;
        double x = -cx;
        double y = -cy;
        m[2] = m[0] * x + m[1] * y + m[2];
        m[5] = m[3] * x + m[4] * y + m[5];
        m[2] += cx;
        m[5] += cy;
        affine(tile, m, interpolation, fill);
    }

    /** The output before a warp: Pillow's new image in {@code fillcolor}, each value truncated ({@code _parse_fill}'s {@code int}). */
    private static void clear(byte[] out, int n, Fill fill) {
        if (!(fill instanceof Fill.Color c)) {
            java.util.Arrays.fill(out, 0, n, (byte) 0);
            return;
        }
        byte r = (byte) (int) c.red();
        byte g = (byte) (int) c.green();
        byte b = (byte) (int) c.blue();
        for (int i = 0; i < n; i += 3) {
            out[i] = r;
            out[i + 1] = g;
            out[i + 2] = b;
        }
    }

    /** torchvision's {@code _get_inverse_affine_matrix}, for Pillow: output pixel to input pixel; shears in radians. */
    static double[] inverseMatrix(double cx, double cy, double angle, double tx, double ty, double scale, double sx,
                                  double sy) {
        double rot = Math.toRadians(angle);
        double a = Math.cos(rot - sy) / Math.cos(sy);
        double b = -Math.cos(rot - sy) * Math.tan(sx) / Math.cos(sy) - Math.sin(rot);
        double c = Math.sin(rot - sy) / Math.cos(sy);
        double d = -Math.sin(rot - sy) * Math.tan(sx) / Math.cos(sy) + Math.cos(rot);
        double[] m = {d / scale, -b / scale, 0.0 / scale, -c / scale, a / scale, 0.0 / scale};
        m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty);
        m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty);
        m[2] += cx;
        m[5] += cy;
        return m;
    }

    /**
     * Pillow's {@code ImagingTransformAffine}: output pixel (x, y) takes the input at
     * {@code (a0 x + a1 y + a2, a3 x + a4 y + a5)} (at pixel centres), black outside; nearest
     * neighbours in 16.16 fixed point (or the scale-only loop), or bilinear through Pillow's
     * generic transform.
     */
    public static void affine(Tile tile, double[] a, Interpolation interpolation) {
        affine(tile, a, interpolation, Fill.NONE);
    }

    /** As {@link #affine(Tile, double[], Interpolation)}, {@code fill} where there is no input. */
    public static void affine(Tile tile, double[] a, Interpolation interpolation, Fill fill) {
        int w = tile.width();
        int h = tile.height();
        byte[] out = tile.pixels();
        byte[] in = tile.spare();
        System.arraycopy(out, 0, in, 0, tile.length());
        clear(out, tile.length(), fill);
        if (interpolation == Interpolation.BILINEAR) {
            bilinear(in, out, w, h, a);
            return;
        }
        if (a[1] == 0 && a[3] == 0) {
            // ImagingScaleAffine
            int[] xin = new int[w];
            double xo = a[2] + a[0] * 0.5;
            for (int x = 0; x < w; x++) {
                xin[x] = coord(xo);
                xo += a[0];
            }
            double yo = a[5] + a[4] * 0.5;
            for (int y = 0; y < h; y++) {
                int yi = coord(yo);
                if (yi >= 0 && yi < h) {
                    for (int x = 0; x < w; x++) {
                        if (xin[x] >= 0 && xin[x] < w) {
                            copy(in, 3 * (yi * w + xin[x]), out, 3 * (y * w + x));
                        }
                    }
                }
                yo += a[4];
            }
            return;
        }
        if (!(fits(a, 0, 0) && fits(a, w, h) && fits(a, 0, h) && fits(a, w, 0))) {
            throw new IllegalArgumentException("an affine map too large for Pillow's fixed-point path: "
                    + java.util.Arrays.toString(a));
        }
        // affine_fixed: 16.16 fixed point
        int a0 = fix(a[0]);
        int a1 = fix(a[1]);
        int a3 = fix(a[3]);
        int a4 = fix(a[4]);
        int a2 = fix(a[2] + a[0] * 0.5 + a[1] * 0.5);
        int a5 = fix(a[5] + a[3] * 0.5 + a[4] * 0.5);
        for (int y = 0; y < h; y++) {
            int xx = a2;
            int yy = a5;
            for (int x = 0; x < w; x++) {
                int xi = xx >> 16;
                if (xi >= 0 && xi < w) {
                    int yi = yy >> 16;
                    if (yi >= 0 && yi < h) {
                        copy(in, 3 * (yi * w + xi), out, 3 * (y * w + x));
                    }
                }
                xx += a0;
                yy += a3;
            }
            a2 += a1;
            a5 += a4;
        }
    }

    /** Pillow's {@code ImagingGenericTransform} with {@code affine_transform} and {@code bilinear_filter32RGB}. */
    private static void bilinear(byte[] in, byte[] out, int w, int h, double[] a) {
        for (int y = 0; y < h; y++) {
            double yc = y + 0.5;
            for (int x = 0; x < w; x++) {
                double xc = x + 0.5;
                bilinearPixel(in, out, w, h, a[0] * xc + a[1] * yc + a[2], a[3] * xc + a[4] * yc + a[5], 3 * (y * w + x));
            }
        }
    }

    /** Pillow's {@code bilinear_filter32RGB} at input position (xin, yin) into {@code out[o..o+2]}; outside, left as cleared (black or the fill). */
    private static void bilinearPixel(byte[] in, byte[] out, int w, int h, double xin, double yin, int o) {
        if (xin < 0.0 || xin >= w || yin < 0.0 || yin >= h) {
            return;    // keeps what clear() set
        }
        xin -= 0.5;
        yin -= 0.5;
        int x0 = floor(xin);
        int y0 = floor(yin);
        double dx = xin - x0;
        double dy = yin - y0;
        int c0 = 3 * clip(x0, w);
        int c1 = 3 * clip(x0 + 1, w);
        int r0 = 3 * w * clip(y0, h);
        boolean below = y0 + 1 >= 0 && y0 + 1 < h;
        int r1 = 3 * w * (y0 + 1);
        for (int b = 0; b < 3; b++) {
            double v1 = lerp(in[r0 + c0 + b] & 0xFF, in[r0 + c1 + b] & 0xFF, dx);
            double v2 = below ? lerp(in[r1 + c0 + b] & 0xFF, in[r1 + c1 + b] & 0xFF, dx) : v1;
            out[o + b] = (byte) (int) lerp(v1, v2, dy);
        }
    }

    /**
     * {@code F.perspective(img, startpoints, endpoints, interpolation)} on a PIL image: the output
     * point {@code endpoints[i]} takes the input at {@code startpoints[i]} (four {x, y} corners),
     * black outside. torchvision solves the eight coefficients by least squares
     * ({@code _get_perspective_coeffs}); the system is square, so here by elimination, in double:
     * the coefficients may differ from torch's in the last bits, which moves a pixel only where a
     * position lands within that of a pixel edge. Then Pillow's {@code perspective_transform}
     * with its nearest or bilinear filter.
     */
    public static void perspective(Tile tile, int[][] startpoints, int[][] endpoints, Interpolation interpolation) {
        perspective(tile, startpoints, endpoints, interpolation, Fill.NONE);
    }

    /** As {@link #perspective(Tile, int[][], int[][], Interpolation)}, {@code fill} outside. */
    public static void perspective(Tile tile, int[][] startpoints, int[][] endpoints, Interpolation interpolation,
                                   Fill fill) {
        double[] c = perspectiveCoefficients(startpoints, endpoints);
        int w = tile.width();
        int h = tile.height();
        byte[] out = tile.pixels();
        byte[] in = tile.spare();
        System.arraycopy(out, 0, in, 0, tile.length());
        clear(out, tile.length(), fill);
        for (int y = 0; y < h; y++) {
            double yc = y + 0.5;
            for (int x = 0; x < w; x++) {
                double xc = x + 0.5;
                double den = c[6] * xc + c[7] * yc + 1;
                double xin = (c[0] * xc + c[1] * yc + c[2]) / den;
                double yin = (c[3] * xc + c[4] * yc + c[5]) / den;
                int o = 3 * (y * w + x);
                if (interpolation == Interpolation.BILINEAR) {
                    bilinearPixel(in, out, w, h, xin, yin, o);
                } else {
                    int xi = coord(xin);
                    int yi = coord(yin);
                    if (xi >= 0 && xi < w && yi >= 0 && yi < h) {
                        copy(in, 3 * (yi * w + xi), out, o);
                    }
                }
            }
        }
    }

    /** torchvision's {@code _get_perspective_coeffs}: the map from output to input points, solved with partial pivoting. */
    static double[] perspectiveCoefficients(int[][] startpoints, int[][] endpoints) {
        double[][] m = new double[8][9];
        for (int i = 0; i < 4; i++) {
            double ex = endpoints[i][0];
            double ey = endpoints[i][1];
            double sx = startpoints[i][0];
            double sy = startpoints[i][1];
            m[2 * i] = new double[] {ex, ey, 1, 0, 0, 0, -sx * ex, -sx * ey, sx};
            m[2 * i + 1] = new double[] {0, 0, 0, ex, ey, 1, -sy * ex, -sy * ey, sy};
        }
        for (int col = 0; col < 8; col++) {
            int pivot = col;
            for (int r = col + 1; r < 8; r++) {
                if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) {
                    pivot = r;
                }
            }
            if (m[pivot][col] == 0.0) {
                throw new IllegalArgumentException("the corners " + java.util.Arrays.deepToString(endpoints)
                        + " do not make a perspective map (three on a line)");
            }
            double[] t = m[col];
            m[col] = m[pivot];
            m[pivot] = t;
            for (int r = 0; r < 8; r++) {
                if (r != col) {
                    double f = m[r][col] / m[col][col];
                    for (int k = col; k < 9; k++) {
                        m[r][k] -= f * m[col][k];
                    }
                }
            }
        }
        double[] c = new double[8];
        for (int i = 0; i < 8; i++) {
            c[i] = m[i][8] / m[i][i];
        }
        return c;
    }

    private static double lerp(double a, double b, double d) {
        return a + (b - a) * d;
    }

    private static int clip(int v, int size) {
        return v < 0 ? 0 : v < size ? v : size - 1;
    }

    /** Pillow's {@code FLOOR}. */
    private static int floor(double v) {
        return v < 0.0 ? (int) Math.floor(v) : (int) v;
    }

    /** Pillow's {@code Image.transpose}: ROTATE_90 (counter-clockwise), ROTATE_180 or ROTATE_270. */
    private static void transpose(Tile tile, int degrees) {
        int w = tile.width();
        int h = tile.height();
        byte[] out = tile.pixels();
        byte[] in = tile.spare();
        System.arraycopy(out, 0, in, 0, tile.length());
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int sx;
                int sy;
                switch (degrees) {
                    case 90 -> { sx = w - 1 - y; sy = x; }
                    case 270 -> { sx = y; sy = h - 1 - x; }
                    default -> { sx = w - 1 - x; sy = h - 1 - y; }
                }
                copy(in, 3 * (sy * w + sx), out, 3 * (y * w + x));
            }
        }
    }

    private static void copy(byte[] in, int from, byte[] out, int to) {
        out[to] = in[from];
        out[to + 1] = in[from + 1];
        out[to + 2] = in[from + 2];
    }

    /** Pillow's {@code COORD}: -1 for any negative value, else truncated. */
    private static int coord(double v) {
        return v < 0.0 ? -1 : (int) v;
    }

    /** Pillow's {@code FIX}: {@code FLOOR(v * 65536 + 0.5)}. */
    private static int fix(double v) {
        return (int) Math.floor(v * 65536.0 + 0.5);
    }

    private static boolean fits(double[] a, int x, int y) {
        return Math.abs(x * a[0] + y * a[1] + a[2]) < 32768.0 && Math.abs(x * a[3] + y * a[4] + a[5]) < 32768.0;
    }

    /** Python's {@code round(v, 15)}: correctly rounded, half to even on the exact decimal value. */
    private static double round15(double v) {
        return new BigDecimal(v).setScale(15, RoundingMode.HALF_EVEN).doubleValue();
    }
}
