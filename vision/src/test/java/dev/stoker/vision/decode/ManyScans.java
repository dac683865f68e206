package dev.stoker.vision.decode;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Progressive JPEGs of many scans, built from a small one, for what damage costs a decoder.
 * The first scan of a progressive JPEG (the DC coefficients of every component) is copied before
 * EOI at full precision (Al 0): each copy is a valid scan that sets the DC coefficients again, so
 * the file decodes without a warning and libjpeg-turbo reads it fast, while ImageIO renders the
 * whole image once per scan. A copy can then be broken.
 *
 * <pre>{@code
 * byte[] slow = ManyScans.withBrokenDcScan(Fixtures.bytes("decode/progressive.jpg"), 400, 300, seed);
 * }</pre>
 */
final class ManyScans {
    private ManyScans() {}

    /** {@code jpeg} with its first scan repeated {@code copies} times before EOI, at Al 0. */
    static byte[] withRepeatedDcScan(byte[] jpeg, int copies) {
        return build(jpeg, copies, -1, 0);
    }

    /**
     * {@link #withRepeatedDcScan} with copy {@code broken} given a spectral selection no decoder
     * accepts (Ss over Se, seeded values): a fatal error in libjpeg, after the scans before it.
     */
    static byte[] withBrokenDcScan(byte[] jpeg, int copies, int broken, long seed) {
        if (broken < 0 || broken >= copies) {
            throw new IllegalArgumentException("copy " + broken + " of " + copies);
        }
        return build(jpeg, copies, broken, seed);
    }

    /** The number of scans {@link #withRepeatedDcScan} gives: the original's and the copies. */
    static int scans(byte[] jpeg, int copies) {
        return JpegScans.count(jpeg, Integer.MAX_VALUE) + copies;
    }

    private static byte[] build(byte[] jpeg, int copies, int broken, long seed) {
        int first = nextScan(jpeg, 2);
        int second = nextScan(jpeg, first + 2);
        if (first < 0 || second < 0 || (jpeg[jpeg.length - 1] & 0xFF) != 0xD9) {
            throw new IllegalArgumentException("not a progressive JPEG ending in EOI");
        }
        // The first scan's SOS and data; any DHT after it defines AC tables, which the copies do not use.
        byte[] scan = Arrays.copyOfRange(jpeg, first, second);
        int components = scan[4] & 0xFF;
        int ss = 5 + 2 * components; // Ss, Se, then Ah and Al in one byte
        if ((scan[ss] | scan[ss + 1]) != 0) {
            throw new IllegalArgumentException("the first scan is not a DC scan");
        }
        scan[ss + 2] = 0; // Ah 0, Al 0: the DC coefficients at full precision
        SplittableRandom rnd = new SplittableRandom(seed);
        int eoi = jpeg.length - 2;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, eoi);
        for (int c = 0; c < copies; c++) {
            byte[] copy = scan;
            if (c == broken) {
                copy = scan.clone();
                int start = 1 + rnd.nextInt(63);
                copy[ss] = (byte) start;
                copy[ss + 1] = (byte) rnd.nextInt(start);
            }
            out.write(copy, 0, copy.length);
        }
        out.write(jpeg, eoi, 2);
        return out.toByteArray();
    }

    private static int nextScan(byte[] jpeg, int from) {
        for (int i = from; i + 1 < jpeg.length; i++) {
            if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == 0xDA) {
                return i;
            }
        }
        return -1;
    }
}
