package dev.stoker.vision.transform;

import java.lang.foreign.MemorySegment;

/**
 * The decoded pixels a {@link Resampler} reads: 8-bit RGB rows of {@code width x height}, which
 * are columns {@code [left, left + width)} and rows {@code [top, top + height)} of the whole
 * decoded image of {@code fullWidth x fullHeight} (a crop decoded on its own); the whole image
 * when {@code left} and {@code top} are 0 and the sizes agree. The whole decoded image may itself
 * be smaller than the source the {@link Geometry} was planned for (DCT scaling): the mapping is
 * scaled to it.
 *
 * @param data       exactly or at least {@code width * height * 3} bytes, rows packed
 * @param width      pixels per row
 * @param height     rows
 * @param left       the first column, in the whole decoded image
 * @param top        the first row, in the whole decoded image
 * @param fullWidth  the whole decoded image's width
 * @param fullHeight the whole decoded image's height
 */
public record SourcePixels(MemorySegment data, int width, int height, int left, int top, int fullWidth,
                           int fullHeight) {
    public SourcePixels {
        if (width < 1 || height < 1 || left < 0 || top < 0 || (long) left + width > fullWidth
                || (long) top + height > fullHeight) {
            throw new IllegalArgumentException("a window of " + width + "x" + height + " at (" + left + ", " + top
                    + ") is not inside an image of " + fullWidth + "x" + fullHeight);
        }
        if (data.byteSize() < 3L * width * height) {
            throw new IllegalArgumentException(width + "x" + height + " RGB pixels need " + 3L * width * height
                    + " bytes, the segment holds " + data.byteSize());
        }
    }

    /** A whole decoded image. */
    public static SourcePixels whole(MemorySegment data, int width, int height) {
        return new SourcePixels(data, width, height, 0, 0, width, height);
    }
}
