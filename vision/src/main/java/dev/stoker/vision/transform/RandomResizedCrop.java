package dev.stoker.vision.transform;

/**
 * torchvision's {@code RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3))}: a crop of
 * a random area (a fraction in {@code scale} of the image's) and aspect ratio (log-uniform in
 * {@code ratio}), tried ten times; if no try fits in the image, the centre crop of the largest
 * box whose ratio is within bounds. Then a bilinear, antialiased resize to {@code size}.
 *
 * <pre>{@code
 * RandomResizedCrop rrc = new RandomResizedCrop(224);
 * CropBox box = rrc.params(500, 375, SampleRandom.of(seed, epoch, index));
 * }</pre>
 *
 * <p>The draws, in order, per try: area fraction, log ratio ({@link SampleRandom#uniform}); when
 * the try fits: top, left ({@link SampleRandom#below}). Sizes are rounded as Python's
 * {@code round} (half to even).
 *
 * @param height output rows
 * @param width  output columns
 * @param scaleMin smallest area fraction, 0 or more
 * @param scaleMax largest area fraction
 * @param ratioMin smallest width / height
 * @param ratioMax largest width / height
 */
public record RandomResizedCrop(int height, int width, double scaleMin, double scaleMax, double ratioMin,
                                double ratioMax) implements ImageTransform {
    public RandomResizedCrop {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("RandomResizedCrop's size is positive, not " + height + "x" + width
                    + " (height x width)");
        }
        // torchvision takes an unordered range with a warning and draws from it anyway; refused here
        if (!(scaleMin >= 0 && scaleMin <= scaleMax) || Double.isInfinite(scaleMax)
                || !(ratioMin > 0 && ratioMin <= ratioMax) || Double.isInfinite(ratioMax)) {
            throw new IllegalArgumentException("RandomResizedCrop needs 0 <= scaleMin <= scaleMax and 0 < ratioMin <="
                    + " ratioMax, finite, not scale (" + scaleMin + ", " + scaleMax + "), ratio (" + ratioMin + ", "
                    + ratioMax + ")");
        }
    }

    /** torchvision's {@code RandomResizedCrop(size=(height, width))}, its default scale and ratio. */
    public RandomResizedCrop(int height, int width) {
        this(height, width, 0.08, 1.0, 3.0 / 4.0, 4.0 / 3.0);
    }

    /** A square output with torchvision's defaults: scale (0.08, 1), ratio (3/4, 4/3). */
    public RandomResizedCrop(int size) {
        this(size, size, 0.08, 1.0, 3.0 / 4.0, 4.0 / 3.0);
    }

    /** torchvision's {@code RandomResizedCrop.get_params}, for an image of {@code imageWidth x imageHeight}. */
    public CropBox params(int imageWidth, int imageHeight, SampleRandom random) {
        double area = (double) imageHeight * imageWidth;
        double logMin = Math.log(ratioMin);
        double logMax = Math.log(ratioMax);
        for (int attempt = 0; attempt < 10; attempt++) {
            double targetArea = area * random.uniform(scaleMin, scaleMax);
            double aspectRatio = Math.exp(random.uniform(logMin, logMax));
            int w = (int) Math.rint(Math.sqrt(targetArea * aspectRatio));
            int h = (int) Math.rint(Math.sqrt(targetArea / aspectRatio));
            if (0 < w && w <= imageWidth && 0 < h && h <= imageHeight) {
                int top = (int) random.below(imageHeight - h + 1);
                int left = (int) random.below(imageWidth - w + 1);
                return new CropBox(top, left, h, w);
            }
        }
        // Fallback to the central crop.
        double inRatio = (double) imageWidth / imageHeight;
        int w;
        int h;
        if (inRatio < ratioMin) {
            w = imageWidth;
            h = (int) Math.rint(w / ratioMin);
        } else if (inRatio > ratioMax) {
            h = imageHeight;
            w = (int) Math.rint(h * ratioMax);
        } else {
            w = imageWidth;
            h = imageHeight;
        }
        return new CropBox((imageHeight - h) / 2, (imageWidth - w) / 2, h, w);
    }

    @Override
    public void apply(Geometry geometry, SampleRandom random) {
        geometry.crop(params(geometry.width(), geometry.height(), random));
        geometry.resize(height, width);
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
