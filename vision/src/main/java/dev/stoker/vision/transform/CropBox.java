package dev.stoker.vision.transform;

/**
 * A crop rectangle in pixels, in torchvision's order {@code (i, j, h, w)}: top row, left column,
 * height, width.
 */
public record CropBox(int top, int left, int height, int width) {
    public CropBox {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("a crop of " + width + "x" + height);
        }
    }
}
