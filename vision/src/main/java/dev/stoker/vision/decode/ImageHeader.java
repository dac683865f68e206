package dev.stoker.vision.decode;

/**
 * An image's size and kind, read from its header without decoding the pixels.
 *
 * @param width  pixels per row
 * @param height rows
 * @param format what the file is, for messages: {@code "JPEG"}, {@code "png"}, ...
 */
public record ImageHeader(int width, int height, String format) {
    public ImageHeader {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("an image of " + width + "x" + height + " pixels");
        }
    }

    public long pixels() {
        return (long) width * height;
    }
}
