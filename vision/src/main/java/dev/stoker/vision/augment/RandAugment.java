package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code RandAugment(num_ops=2, magnitude=9, num_magnitude_bins=31,
 * interpolation=NEAREST, fill=None)}: {@code numOps} times, one of fourteen ops chosen uniformly, at the
 * fixed magnitude bin {@code magnitude}, negated half the time for the signed ops.
 *
 * <pre>{@code
 * ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomHorizontalFlip())
 *         .add(new RandAugment(2, 9)).build();          // timm's rand-m9-n2
 * }</pre>
 *
 * <p>Draws per op, as torchvision's {@code forward}: the op; for signed ops, the sign.
 *
 * @param numOps    ops applied in a row (0: none, as torchvision's)
 * @param magnitude the bin, in {@code [0, bins)}
 * @param bins      the number of magnitude bins, at least 2
 * @param interpolation of the shear, translate and rotate ops
 * @param fill          what those uncover ({@link Fill#NONE}: black)
 */
public record RandAugment(int numOps, int magnitude, int bins, Interpolation interpolation, Fill fill)
        implements PixelOp {
    private static final PolicyOp[] OPS = {PolicyOp.IDENTITY, PolicyOp.SHEAR_X, PolicyOp.SHEAR_Y,
        PolicyOp.TRANSLATE_X, PolicyOp.TRANSLATE_Y, PolicyOp.ROTATE, PolicyOp.BRIGHTNESS, PolicyOp.COLOR,
        PolicyOp.CONTRAST, PolicyOp.SHARPNESS, PolicyOp.POSTERIZE, PolicyOp.SOLARIZE, PolicyOp.AUTO_CONTRAST,
        PolicyOp.EQUALIZE};

    public RandAugment {
        if (numOps < 0 || bins < 2 || magnitude < 0 || magnitude >= bins) {
            throw new IllegalArgumentException("RandAugment needs numOps >= 0, bins >= 2 and 0 <= magnitude < bins, not "
                    + numOps + ", " + bins + ", " + magnitude + (magnitude < 0 ? " (torchvision would index its"
                    + " table from the end)" : ""));
        }
        java.util.Objects.requireNonNull(interpolation, "interpolation");
        java.util.Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's None)");
    }

    /** These parameters, {@code fill=None}. */
    public RandAugment(int numOps, int magnitude, int bins, Interpolation interpolation) {
        this(numOps, magnitude, bins, interpolation, Fill.NONE);
    }

    /** The same with the warps' {@code fill} (Pillow's {@code fillcolor}; {@link Warp}). */
    public RandAugment fill(Fill fill) {
        return new RandAugment(numOps, magnitude, bins, interpolation, fill);
    }

    /** {@code numOps} ops at bin {@code magnitude} of 31, nearest. */
    public RandAugment(int numOps, int magnitude) {
        this(numOps, magnitude, 31, Interpolation.NEAREST);
    }

    /** torchvision's defaults: 2 ops at bin 9 of 31, nearest. */
    public RandAugment() {
        this(2, 9, 31, Interpolation.NEAREST);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        for (int k = 0; k < numOps; k++) {
            PolicyOp op = OPS[(int) random.below(OPS.length)];
            double m = op.hasMagnitudes() ? op.standardMagnitude(bins, magnitude, tile.width(), tile.height()) : 0.0;
            if (op.signed && random.below(2) == 1) {
                m = -m;
            }
            op.apply(tile, m, interpolation, fill);
        }
    }
}
