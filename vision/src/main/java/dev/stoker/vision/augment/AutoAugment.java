package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code AutoAugment(AutoAugmentPolicy.IMAGENET, interpolation=NEAREST,
 * fill=None)}: per image, one of the 25 learned sub-policies chosen uniformly; each of its two ops runs
 * with its probability, at its magnitude bin (of 10), negated half the time for the signed ops.
 *
 * <pre>{@code
 * ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomHorizontalFlip())
 *         .add(new AutoAugment()).build();
 * }</pre>
 *
 * <p>Draws, as torchvision's {@code get_params}: the sub-policy; two probabilities; two signs.
 *
 * @param interpolation of the shear and rotate ops
 * @param fill          what those uncover ({@link Fill#NONE}: black)
 */
public record AutoAugment(Interpolation interpolation, Fill fill) implements PixelOp {
    private static final int BINS = 10;

    /** One op of a sub-policy: the op, its probability, its magnitude bin (-1: none). */
    private record Step(PolicyOp op, double p, int bin) {}

    /** torchvision's ImageNet policy, in its order. */
    private static final Step[][] IMAGENET = {
        {s("Posterize", 0.4, 8), s("Rotate", 0.6, 9)},
        {s("Solarize", 0.6, 5), s("AutoContrast", 0.6, -1)},
        {s("Equalize", 0.8, -1), s("Equalize", 0.6, -1)},
        {s("Posterize", 0.6, 7), s("Posterize", 0.6, 6)},
        {s("Equalize", 0.4, -1), s("Solarize", 0.2, 4)},
        {s("Equalize", 0.4, -1), s("Rotate", 0.8, 8)},
        {s("Solarize", 0.6, 3), s("Equalize", 0.6, -1)},
        {s("Posterize", 0.8, 5), s("Equalize", 1.0, -1)},
        {s("Rotate", 0.2, 3), s("Solarize", 0.6, 8)},
        {s("Equalize", 0.6, -1), s("Posterize", 0.4, 6)},
        {s("Rotate", 0.8, 8), s("Color", 0.4, 0)},
        {s("Rotate", 0.4, 9), s("Equalize", 0.6, -1)},
        {s("Equalize", 0.0, -1), s("Equalize", 0.8, -1)},
        {s("Invert", 0.6, -1), s("Equalize", 1.0, -1)},
        {s("Color", 0.6, 4), s("Contrast", 1.0, 8)},
        {s("Rotate", 0.8, 8), s("Color", 1.0, 2)},
        {s("Color", 0.8, 8), s("Solarize", 0.8, 7)},
        {s("Sharpness", 0.4, 7), s("Invert", 0.6, -1)},
        {s("ShearX", 0.6, 5), s("Equalize", 1.0, -1)},
        {s("Color", 0.4, 0), s("Equalize", 0.6, -1)},
        {s("Equalize", 0.4, -1), s("Solarize", 0.2, 4)},
        {s("Solarize", 0.6, 5), s("AutoContrast", 0.6, -1)},
        {s("Invert", 0.6, -1), s("Equalize", 1.0, -1)},
        {s("Color", 0.6, 4), s("Contrast", 1.0, 8)},
        {s("Equalize", 0.8, -1), s("Equalize", 0.6, -1)},
    };

    public AutoAugment {
        java.util.Objects.requireNonNull(interpolation, "interpolation");
        java.util.Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's None)");
    }

    /** The ImageNet policy with {@code interpolation}, {@code fill=None}. */
    public AutoAugment(Interpolation interpolation) {
        this(interpolation, Fill.NONE);
    }

    /** The same with the warps' {@code fill} (Pillow's {@code fillcolor}; {@link Warp}). */
    public AutoAugment fill(Fill fill) {
        return new AutoAugment(interpolation, fill);
    }

    /** torchvision's default, nearest. */
    public AutoAugment() {
        this(Interpolation.NEAREST);
    }

    private static Step s(String op, double p, int bin) {
        return new Step(PolicyOp.named(op), p, bin);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        Step[] policy = IMAGENET[(int) random.below(IMAGENET.length)];
        double[] probs = {random.nextDouble(), random.nextDouble()};
        long[] signs = {random.below(2), random.below(2)};
        for (int i = 0; i < 2; i++) {
            Step step = policy[i];
            if (probs[i] <= step.p()) {
                double m = step.bin() < 0 ? 0.0
                        : step.op().standardMagnitude(BINS, step.bin(), tile.width(), tile.height());
                if (step.op().signed && signs[i] == 0) {
                    m = -m;
                }
                step.op().apply(tile, m, interpolation, fill);
            }
        }
    }

    /** The magnitude of bin {@code bin} of op {@code torchName} for an image {@code width x height} (tests, tools). */
    static double magnitude(String torchName, int bins, int bin, int width, int height) {
        return PolicyOp.named(torchName).standardMagnitude(bins, bin, width, height);
    }
}
