package dev.stoker.vision.batch;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Reads and writes runs of a batch tensor's elements as floats, whatever its float dtype. */
final class Rows {
    private Rows() {}

    static void check(Tensor images) {
        DType d = images.dtype();
        if (images.shape().rank() != 4 || (d != DType.F32 && d != DType.F16 && d != DType.BF16)) {
            throw new IllegalArgumentException("batch ops mix (N, C, H, W) f32, f16 or bf16 images, not " + d + " "
                    + images.shape());
        }
    }

    static void read(Tensor t, long from, float[] into, int n) {
        if (t.dtype() == DType.F32) {
            MemorySegment.copy(t.segment(), ValueLayout.JAVA_FLOAT_UNALIGNED, from * 4, into, 0, n);
            return;
        }
        for (int i = 0; i < n; i++) {
            into[i] = t.getFloat(from + i);
        }
    }

    static void write(Tensor t, long from, float[] values, int n) {
        if (t.dtype() == DType.F32) {
            MemorySegment.copy(values, 0, t.segment(), ValueLayout.JAVA_FLOAT_UNALIGNED, from * 4, n);
            return;
        }
        for (int i = 0; i < n; i++) {
            t.setFloat(from + i, values[i]);
        }
    }

    /**
     * {@code t.roll(1, 0) * (1 - lam) + t * lam} over the runs {@code [offset, offset + n)} of
     * every sample, in place, in float32 as torch computes it. {@code t} is viewed as
     * {@code (N, per)}: sample i's run starts at {@code i * per + offset}.
     */
    static void mixWithPrevious(Tensor t, long per, long offset, int n, double lam) {
        roll(t, per, offset, n, lam, false);
    }

    /**
     * Runs of at most this many elements at a time: three working arrays of 16 KiB (a whole
     * image's run would be three arrays of 600 KB a batch, each one a humongous allocation for
     * G1) that stay in the cache while every sample passes through them.
     */
    private static final int CHUNK = 4096;

    private static void roll(Tensor t, long per, long offset, int n, double lam, boolean copy) {
        int count = (int) t.shape().dim(0);
        float keep = (float) lam;
        float take = (float) (1.0 - lam);
        int size = Math.min(n, CHUNK);
        float[] last = new float[size];
        float[] cur = new float[size];
        float[] prev = new float[size];
        for (int from = 0; from < n; from += CHUNK) {
            int m = Math.min(CHUNK, n - from);
            long at = offset + from;
            // From the last sample down, so that each sample's run is read before it is written;
            // the last one's is kept for the first, which rolls it in after it was changed.
            read(t, (count - 1) * per + at, last, m);
            System.arraycopy(last, 0, cur, 0, m);
            for (int i = count - 1; i >= 0; i--) {
                float[] before = last;
                if (i > 0) {
                    read(t, (i - 1) * per + at, prev, m);
                    before = prev;
                }
                if (copy) {
                    write(t, i * per + at, before, m);
                } else {
                    for (int k = 0; k < m; k++) {
                        cur[k] = before[k] * take + cur[k] * keep;
                    }
                    write(t, i * per + at, cur, m);
                }
                // Sample i - 1's run, as read, is the next one to change.
                float[] swap = cur;
                cur = prev;
                prev = swap;
            }
        }
    }

    /** {@code t[:, run] = t.roll(1, 0)[:, run]}: each sample's run replaced by the previous sample's (the last's for the first). */
    static void copyFromPrevious(Tensor t, long per, long offset, int n) {
        roll(t, per, offset, n, 0, true);
    }
}
