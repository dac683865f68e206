package dev.stoker.vision.transform;

/**
 * Where each output pixel comes from: the crops, the one resize and the flip of a pipeline,
 * composed into a single mapping from output pixels to source pixels, so that the resampler
 * reads only the source pixels the output needs and writes each output pixel once. No image is
 * resized whole and then cropped.
 *
 * <p>The mapping follows PIL exactly. A crop before the resize restricts the resampling to the
 * crop (PIL's {@code img.crop(box).resize(size)}); a crop after it selects output pixels of the
 * whole resized image ({@code img.resize(size).crop(box)}), which is the same resampling at
 * shifted positions; a crop reaching past the image pads with black, as torchvision's
 * {@code CenterCrop} does.
 *
 * <pre>{@code
 * Geometry g = new Geometry(500, 375);          // the source image
 * g.resize(256, 341);                           // Resize(256)
 * g.crop(new CropBox(16, 58, 224, 224));        // CenterCrop(224)
 * g.width();                                    // 224
 * }</pre>
 *
 * <p>Mutable; one per sample.
 */
public final class Geometry {
    private final int sourceWidth;
    private final int sourceHeight;
    final Axis x;
    final Axis y;
    private boolean resized;
    private boolean flipped;

    public Geometry(int sourceWidth, int sourceHeight) {
        if (sourceWidth < 1 || sourceHeight < 1) {
            throw new IllegalArgumentException("an image of " + sourceWidth + "x" + sourceHeight);
        }
        this.sourceWidth = sourceWidth;
        this.sourceHeight = sourceHeight;
        this.x = new Axis(sourceWidth);
        this.y = new Axis(sourceHeight);
    }

    public int sourceWidth() {
        return sourceWidth;
    }

    public int sourceHeight() {
        return sourceHeight;
    }

    /** The width of the image as the transforms so far have made it. */
    public int width() {
        return x.size;
    }

    /** The height of the image as the transforms so far have made it. */
    public int height() {
        return y.size;
    }

    /** Source pixels per output pixel across (1 until a resize; above 1 when shrinking). */
    public double scaleX() {
        return x.scale;
    }

    /** Source pixels per output pixel down. */
    public double scaleY() {
        return y.scale;
    }

    public boolean isResized() {
        return resized;
    }

    public boolean isFlipped() {
        return flipped;
    }

    /**
     * Keeps {@code box} of the current image. Parts of the box outside the image are padding
     * (black). The box is given in the current image's coordinates, after any flip.
     */
    public void crop(CropBox box) {
        int left = flipped ? x.size - box.left() - box.width() : box.left();
        x.crop(left, box.width(), resized, "columns", box);
        y.crop(box.top(), box.height(), resized, "rows", box);
    }

    /**
     * Resizes the current image to {@code width x height} (bilinear, antialiased when
     * shrinking). One resize per geometry, before any padding: two resamplings in a row are not
     * one resampling, and PIL would round in between.
     */
    public void resize(int height, int width) {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("cannot resize to " + width + "x" + height);
        }
        if (resized) {
            throw new IllegalStateException("a pipeline resizes once; this one resizes again to " + width + "x" + height);
        }
        if (x.padded() || y.padded()) {
            throw new IllegalStateException("cannot resize an image padded by an earlier crop");
        }
        x.resize(width);
        y.resize(height);
        resized = true;
    }

    /**
     * The source pixels the resample reads, as a box of the source image (unflipped): what a
     * decoder must decode of it. A pixel or two wider than the filter needs where the output is
     * only part of a resize (a crop after it), so that rounding cannot leave a tap outside.
     */
    public CropBox sourceRegion() {
        int[] xs = x.readSpan();
        int[] ys = y.readSpan();
        return new CropBox(ys[0], xs[0], ys[1] - ys[0], xs[1] - xs[0]);
    }

    /** The mapping across, as numbers (for a resampler elsewhere, such as the GPU's). */
    public AxisMapping mappingX() {
        return x.mapping();
    }

    /** The mapping down, as numbers. */
    public AxisMapping mappingY() {
        return y.mapping();
    }

    /** Mirrors the image left to right. */
    public void flipHorizontal() {
        flipped = !flipped;
    }

    /**
     * One axis of the mapping. Output position {@code v} in {@code [imgStart, imgEnd)} is the
     * resampled pixel with index {@code xx = v - imgStart + shift}, whose centre in the source is
     * {@code origin + in0 + (xx + 0.5) * scale} (PIL's {@code precompute_coeffs}); resampling
     * reads source pixels in {@code [origin, origin + inSize)} only. Positions outside
     * {@code [imgStart, imgEnd)} are padding.
     */
    static final class Axis {
        int origin;
        int inSize;
        double in0;
        double scale = 1.0;
        int shift;
        int size;
        int imgStart;
        int imgEnd;

        Axis(int sourceSize) {
            inSize = sourceSize;
            size = sourceSize;
            imgEnd = sourceSize;
        }

        /**
         * {@code [lo, hi)}, the source positions the outputs {@code [imgStart, imgEnd)} read: those
         * within the filter's support of their centres, within {@code [origin, origin + inSize)}.
         */
        int[] readSpan() {
            double support = Math.max(scale, 1.0);
            int count = imgEnd - imgStart;
            long lo = (long) Math.floor(in0 + (shift + 0.5) * scale - support) - 1;
            long hi = (long) Math.ceil(in0 + (shift + count - 0.5) * scale + support) + 1;
            int from = (int) Math.clamp(lo, 0, inSize - 1);
            int to = (int) Math.clamp(hi, from + 1, inSize);
            return new int[] {origin + from, origin + to};
        }

        AxisMapping mapping() {
            return new AxisMapping(origin, inSize, in0, scale, shift, imgStart, imgEnd, size);
        }

        boolean padded() {
            return imgStart != 0 || imgEnd != size;
        }

        void crop(int offset, int length, boolean resized, String what, CropBox box) {
            int start = Math.max(imgStart - offset, 0);
            int end = Math.min(imgEnd - offset, length);
            if (end <= start) {
                throw new IllegalArgumentException("the crop " + box + " keeps no " + what + " of an image "
                        + size + " " + what + " long");
            }
            int cut = Math.max(0, offset - imgStart);
            if (resized) {
                shift += cut;
            } else {
                origin += cut;
                inSize = end - start;
            }
            imgStart = start;
            imgEnd = end;
            size = length;
        }

        void resize(int outSize) {
            scale = (double) inSize / outSize;
            in0 = 0;
            shift = 0;
            size = outSize;
            imgStart = 0;
            imgEnd = outSize;
        }
    }
}
