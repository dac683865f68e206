package dev.stoker.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The damage a corruption fuzz does to a file's bytes, drawn from a seeded generator: flipped
 * bytes, an interesting value written over a 4- or 8-byte field (0, -1, the extremes, the file's
 * length), a cut, a run of random bytes, bytes inserted or removed.
 */
public final class Damage {
    private Damage() {
    }

    /** The damaged bytes and what was done, for the case's log line. */
    public record Done(byte[] bytes, String what) {}

    /** One kind of damage to {@code data} (not changed), chosen and placed by {@code rnd}. */
    public static Done apply(byte[] data, SplittableRandom rnd) {
        byte[] d = data.clone();
        if (d.length == 0) {
            return new Done(new byte[] {(byte) rnd.nextInt(256)}, "one byte into an empty file");
        }
        switch (rnd.nextInt(6)) {
            case 0 -> {
                int k = rnd.nextInt(1, 5);
                StringBuilder at = new StringBuilder();
                for (int i = 0; i < k; i++) {
                    int p = rnd.nextInt(d.length);
                    d[p] ^= (byte) rnd.nextInt(1, 256);
                    at.append(' ').append(p);
                }
                return new Done(d, "flipped bytes at" + at);
            }
            case 1 -> {
                long[] values = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE,
                    d.length, d.length + 1L, 1L << 40, rnd.nextLong()};
                long v = values[rnd.nextInt(values.length)];
                int width = rnd.nextBoolean() ? 8 : 4;
                if (d.length < width) {
                    return new Done(Arrays.copyOf(d, d.length / 2), "cut to " + d.length / 2 + " bytes");
                }
                int p = rnd.nextInt(d.length - width + 1);
                ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
                if (width == 8) {
                    b.putLong(p, v);
                } else {
                    b.putInt(p, (int) v);
                }
                return new Done(d, "the " + width + "-byte value " + v + " at " + p);
            }
            case 2 -> {
                int n = rnd.nextInt(d.length);
                return new Done(Arrays.copyOf(d, n), "cut to " + n + " bytes");
            }
            case 3 -> {
                int from = rnd.nextInt(d.length);
                int to = Math.min(d.length, from + rnd.nextInt(1, 64));
                for (int i = from; i < to; i++) {
                    d[i] = (byte) rnd.nextInt(256);
                }
                return new Done(d, "random bytes at " + from + ".." + to);
            }
            case 4 -> {
                int p = rnd.nextInt(d.length + 1);
                byte[] extra = new byte[rnd.nextInt(1, 32)];
                for (int i = 0; i < extra.length; i++) {
                    extra[i] = (byte) rnd.nextInt(256);
                }
                byte[] out = new byte[d.length + extra.length];
                System.arraycopy(d, 0, out, 0, p);
                System.arraycopy(extra, 0, out, p, extra.length);
                System.arraycopy(d, p, out, p + extra.length, d.length - p);
                return new Done(out, extra.length + " bytes inserted at " + p);
            }
            default -> {
                int p = rnd.nextInt(d.length);
                int n = Math.min(d.length - p, rnd.nextInt(1, 32));
                byte[] out = new byte[d.length - n];
                System.arraycopy(d, 0, out, 0, p);
                System.arraycopy(d, p + n, out, p, d.length - p - n);
                return new Done(out, n + " bytes removed at " + p);
            }
        }
    }
}
