package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code GaussianBlur(kernel_size, sigma=(0.1, 2.0))}: a square Gaussian blur of
 * odd size {@code kernelSize}, its sigma drawn uniformly from {@code [sigmaMin, sigmaMax]} (one
 * draw), with reflect padding at the edges. Within one level of torchvision (see
 * {@link Adjust#gaussianBlur}).
 *
 * <pre>{@code
 * new GaussianBlur(23);                 // SimCLR's, for 224-pixel crops
 * new GaussianBlur(5, 0.5, 0.5);        // a fixed sigma
 * }</pre>
 *
 * @param kernelSize odd, and at most twice the image's smaller side
 * @param sigmaMin   the smallest sigma, positive
 * @param sigmaMax   the largest
 */
public record GaussianBlur(int kernelSize, double sigmaMin, double sigmaMax) implements PixelOp {
    public GaussianBlur {
        if (kernelSize < 1 || kernelSize % 2 == 0) {
            throw new IllegalArgumentException("GaussianBlur's kernel size is odd and positive, not " + kernelSize);
        }
        if (!(sigmaMin > 0 && sigmaMin <= sigmaMax) || Double.isInfinite(sigmaMax)) {
            throw new IllegalArgumentException("GaussianBlur's sigma range is positive and ordered, not ["
                    + sigmaMin + ", " + sigmaMax + "]");
        }
    }

    /** torchvision's default sigma range, (0.1, 2.0). */
    public GaussianBlur(int kernelSize) {
        this(kernelSize, 0.1, 2.0);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        Adjust.gaussianBlur(tile, kernelSize, random.uniform(sigmaMin, sigmaMax));
    }
}
