package dev.stoker.cuda.image;

import dev.stoker.vision.transform.AxisMapping;
import dev.stoker.vision.transform.Geometry;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One sample's record for the GPU resample kernel ({@code image_kernels.cu}): where its decoded
 * pixels are and the geometry's mapping, as 19 64-bit words. The worker writes the geometry; the
 * decoder fills in the pixels' address and pitch once it has placed the decoded image.
 */
final class GpuSampleRecord {
    static final int WORDS = 19;
    static final int SOURCE = 0;
    static final int PITCH = 1;
    static final int SOURCE_WIDTH = 2;
    static final int SOURCE_HEIGHT = 3;
    private static final int X = 4;
    private static final int Y = 11;
    private static final int FLIP = 18;
    /** The kernel keeps at most this many filter taps per axis (its MAX_TAPS). */
    static final int MAX_TAPS = 64;

    private GpuSampleRecord() {}

    /**
     * Writes the record of an image of {@code width x height} transformed as {@code g} at word
     * {@code first} of {@code out}.
     *
     * @throws IllegalArgumentException naming {@code source} when the geometry shrinks more than
     *     the kernel's filter holds
     */
    static void write(MemorySegment out, long first, Geometry g, int width, int height, String source) {
        AxisMapping x = g.mappingX();
        AxisMapping y = g.mappingY();
        if (x.maxTaps() > MAX_TAPS || y.maxTaps() > MAX_TAPS) {
            throw new IllegalArgumentException(source + ": the GPU resample shrinks by at most "
                    + (MAX_TAPS - 1) / 2 + " times per axis, and this image's crop shrinks by "
                    + Math.max(x.scale(), y.scale()) + ": decode it on the CPU path (JpegDataset)");
        }
        set(out, first, SOURCE, 0);
        set(out, first, PITCH, 0);
        set(out, first, SOURCE_WIDTH, width);
        set(out, first, SOURCE_HEIGHT, height);
        axis(out, first + X, x);
        axis(out, first + Y, y);
        set(out, first, FLIP, g.isFlipped() ? 1 : 0);
    }

    private static void axis(MemorySegment out, long at, AxisMapping a) {
        set(out, at, 0, a.origin());
        set(out, at, 1, a.inSize());
        set(out, at, 2, Double.doubleToRawLongBits(a.in0()));
        set(out, at, 3, Double.doubleToRawLongBits(a.scale()));
        set(out, at, 4, a.shift());
        set(out, at, 5, a.imgStart());
        set(out, at, 6, a.imgEnd());
    }

    static void set(MemorySegment out, long first, int word, long value) {
        out.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, first + word, value);
    }

    static long get(MemorySegment in, long first, int word) {
        return in.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, first + word);
    }
}
