package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code GaussianBlur(kernel_size, sigma=(0.1, 2.0))}: a Gaussian blur of odd size
 * {@code kernelWidth x kernelHeight} (torchvision's {@code kernel_size=(kx, ky)}; one number is a
 * square), its sigma drawn uniformly from {@code [sigmaMin, sigmaMax]} (one draw, both
 * directions), with reflect padding at the edges. Within one level of torchvision (see
 * {@link Adjust#gaussianBlur}).
 *
 * <pre>{@code
 * new GaussianBlur(23);                 // SimCLR's, for 224-pixel crops
 * new GaussianBlur(5, 0.5);             // sigma=0.5
 * new GaussianBlur(5, 3, 0.1, 2.0);     // kernel_size=(5, 3)
 * }</pre>
 *
 * @param kernelWidth  across (torchvision's kx): odd, and at most twice the image's width
 * @param kernelHeight down (ky): odd, and at most twice the image's height
 * @param sigmaMin     the smallest sigma, positive
 * @param sigmaMax     the largest
 */
public record GaussianBlur(int kernelWidth, int kernelHeight, double sigmaMin, double sigmaMax) implements PixelOp {
    public GaussianBlur {
        if (kernelWidth < 1 || kernelWidth % 2 == 0 || kernelHeight < 1 || kernelHeight % 2 == 0) {
            throw new IllegalArgumentException("GaussianBlur's kernel size is odd and positive, not " + kernelWidth
                    + (kernelWidth == kernelHeight ? "" : "x" + kernelHeight));
        }
        if (!(sigmaMin > 0 && sigmaMin <= sigmaMax) || Double.isInfinite(sigmaMax)) {
            throw new IllegalArgumentException("GaussianBlur's sigma range is positive and ordered, not ["
                    + sigmaMin + ", " + sigmaMax + "]");
        }
    }

    /** A square kernel, sigma in {@code [sigmaMin, sigmaMax]}: {@code GaussianBlur(k, (sigmaMin, sigmaMax))}. */
    public GaussianBlur(int kernelSize, double sigmaMin, double sigmaMax) {
        this(kernelSize, kernelSize, sigmaMin, sigmaMax);
    }

    /** A square kernel, a fixed sigma: {@code GaussianBlur(k, sigma)}. */
    public GaussianBlur(int kernelSize, double sigma) {
        this(kernelSize, kernelSize, sigma, sigma);
    }

    /** torchvision's default sigma range, 0.1 to 2. */
    public GaussianBlur(int kernelSize) {
        this(kernelSize, 0.1, 2.0);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        Adjust.gaussianBlur(tile, kernelWidth, kernelHeight, random.uniform(sigmaMin, sigmaMax));
    }
}
