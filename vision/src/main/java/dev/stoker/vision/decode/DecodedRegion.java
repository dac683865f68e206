package dev.stoker.vision.decode;

/**
 * Part of an image, decoded: {@code image} holds the pixels of columns {@code [left, left +
 * image.width())} and rows {@code [top, top + image.height())} of the image as a whole decode at
 * {@code image.scale()} would give it, {@code fullWidth x fullHeight}. A whole decode is the
 * region at {@code (0, 0)} of its own size.
 *
 * <p>NOTE: a view into the session's buffer, as {@link DecodedImage}.
 *
 * @param image      the decoded pixels of the region
 * @param left       the region's first column, in the scaled image
 * @param top        the region's first row, in the scaled image
 * @param fullWidth  the width of the whole image at the region's scale
 * @param fullHeight the height of the whole image at the region's scale
 */
public record DecodedRegion(DecodedImage image, int left, int top, int fullWidth, int fullHeight) {
    public DecodedRegion {
        if (left < 0 || top < 0 || (long) left + image.width() > fullWidth || (long) top + image.height() > fullHeight) {
            throw new IllegalArgumentException("a region of " + image.width() + "x" + image.height() + " at (" + left
                    + ", " + top + ") is not inside an image of " + fullWidth + "x" + fullHeight);
        }
    }

    /** The whole of {@code image}. */
    public static DecodedRegion whole(DecodedImage image) {
        return new DecodedRegion(image, 0, 0, image.width(), image.height());
    }

    /** Whether this is only part of the image. */
    public boolean isPartial() {
        return image.width() != fullWidth || image.height() != fullHeight;
    }
}
