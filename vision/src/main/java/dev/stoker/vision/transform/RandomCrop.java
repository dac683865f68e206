package dev.stoker.vision.transform;

/**
 * torchvision's {@code RandomCrop(size, padding=None, pad_if_needed=False)} with its default
 * black, constant padding: the image padded by {@code padding} (and, with {@link #padIfNeeded()},
 * on both sides of a dimension still smaller than the crop, by the shortfall, width first), then
 * a {@code height x width} box at a random place in it. The padding is the crop reaching past the
 * image, so it costs nothing: nothing is padded but the output's edge.
 *
 * <pre>{@code
 * new RandomCrop(32).padding(4);              // CIFAR's RandomCrop(32, padding=4)
 * new RandomCrop(224, 224).padIfNeeded();     // RandomCrop(224, pad_if_needed=True)
 * }</pre>
 *
 * <p>Draws, as torchvision's {@code get_params}: none when the padded image is the crop's size;
 * else the top, then the left ({@link SampleRandom#below}). Only black padding: torchvision's
 * {@code fill} and {@code padding_mode} other than 0 and {@code "constant"} are not there.
 *
 * @param height      output rows
 * @param width       output columns
 * @param padLeft     columns of padding on the left
 * @param padTop      rows on top
 * @param padRight    columns on the right
 * @param padBottom   rows at the bottom
 * @param padIfSmaller torchvision's {@code pad_if_needed}: whether to pad a dimension smaller than the
 *                    crop (else it is an error)
 */
public record RandomCrop(int height, int width, int padLeft, int padTop, int padRight, int padBottom,
                         boolean padIfSmaller) implements ImageTransform {
    public RandomCrop {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("RandomCrop's size is positive, not " + height + "x" + width
                    + " (height x width)");
        }
        if (padLeft < 0 || padTop < 0 || padRight < 0 || padBottom < 0) {
            throw new IllegalArgumentException("RandomCrop's padding is 0 or more on each side, not (left " + padLeft
                    + ", top " + padTop + ", right " + padRight + ", bottom " + padBottom + ")");
        }
    }

    /** {@code RandomCrop(size)}: a square crop, no padding. */
    public RandomCrop(int size) {
        this(size, size);
    }

    /** {@code RandomCrop((height, width))}. */
    public RandomCrop(int height, int width) {
        this(height, width, 0, 0, 0, 0, false);
    }

    /** {@code padding=p}: every side. */
    public RandomCrop padding(int all) {
        return padding(all, all, all, all);
    }

    /** {@code padding=(leftRight, topBottom)}. */
    public RandomCrop padding(int leftRight, int topBottom) {
        return padding(leftRight, topBottom, leftRight, topBottom);
    }

    /** {@code padding=(left, top, right, bottom)}. */
    public RandomCrop padding(int left, int top, int right, int bottom) {
        return new RandomCrop(height, width, left, top, right, bottom, padIfSmaller);
    }

    /** {@code pad_if_needed=True}. */
    public RandomCrop padIfNeeded() {
        return new RandomCrop(height, width, padLeft, padTop, padRight, padBottom, true);
    }

    @Override
    public void apply(Geometry geometry, SampleRandom random) {
        Padded p = pad(geometry);
        int top = 0;
        int left = 0;
        if (p.width != width || p.height != height) {
            top = (int) random.below(p.height - height + 1);
            left = (int) random.below(p.width - width + 1);
        }
        crop(geometry, p, top, left);
    }

    /** The padded image's size and where the image starts in it. */
    record Padded(int width, int height, int left, int top) {}

    /** The image after {@code padding} and {@code pad_if_needed}, as torchvision pads it. */
    Padded pad(Geometry g) {
        int w = g.width() + padLeft + padRight;
        int h = g.height() + padTop + padBottom;
        int left = padLeft;
        int top = padTop;
        if (padIfSmaller && w < width) {
            left += width - w;
            w += 2 * (width - w);
        }
        if (padIfSmaller && h < height) {
            top += height - h;
            h += 2 * (height - h);
        }
        if (h < height || w < width) {
            throw new IllegalArgumentException("RandomCrop of " + height + "x" + width + " needs an image at least"
                    + " that large after its padding, not " + h + "x" + w + " (padIfNeeded() pads it, as"
                    + " torchvision's pad_if_needed)");
        }
        return new Padded(w, h, left, top);
    }

    /** Keeps the box at {@code (top, left)} of the padded image {@code p}: where the padding is, black. */
    void crop(Geometry g, Padded p, int top, int left) {
        g.crop(new CropBox(top - p.top, left - p.left, height, width));
    }

    @Override
    public SizeEffect sizeEffect() {
        return SizeEffect.fixed(height, width);
    }

    @Override
    public boolean isRandom() {
        return true;
    }
}
