package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.List;

/**
 * torchvision's {@code TrivialAugmentWide(num_magnitude_bins=31, interpolation=NEAREST,
 * fill=None)}: per image, one of fourteen ops chosen uniformly, at a magnitude chosen uniformly
 * from its bins, negated half the time for the signed ops. The geometric ones (shear, translate,
 * rotate) run on the resampled output as {@link Warp}s, as torchvision runs them after the crop.
 *
 * <pre>{@code
 * ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomHorizontalFlip())
 *         .add(new TrivialAugmentWide()).add(new RandomErasing(0.25)).build();
 * }</pre>
 *
 * <p>Draws, as torchvision's {@code forward}: the op ({@link SampleRandom#below}(14)); for ops
 * with magnitudes, the bin; for signed ops, the sign.
 *
 * @param bins the number of magnitude bins, at least 2
 * @param interpolation of the shear, translate and rotate ops
 * @param fill          what those uncover ({@link Fill#NONE}: black)
 */
public record TrivialAugmentWide(int bins, Interpolation interpolation, Fill fill) implements PixelOp {
    /** The ops in torchvision's order. */
    public static final List<String> OPS = List.of("Identity", "ShearX", "ShearY", "TranslateX", "TranslateY",
            "Rotate", "Brightness", "Color", "Contrast", "Sharpness", "Posterize", "Solarize", "AutoContrast",
            "Equalize");

    public TrivialAugmentWide {
        if (bins < 2) {
            throw new IllegalArgumentException("TrivialAugmentWide needs at least 2 magnitude bins, not " + bins);
        }
        java.util.Objects.requireNonNull(interpolation, "interpolation");
        java.util.Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's None)");
    }

    /** {@code bins} magnitudes, {@code interpolation}, {@code fill=None}. */
    public TrivialAugmentWide(int bins, Interpolation interpolation) {
        this(bins, interpolation, Fill.NONE);
    }

    /** The same with the warps' {@code fill} (Pillow's {@code fillcolor}; {@link Warp}). */
    public TrivialAugmentWide fill(Fill fill) {
        return new TrivialAugmentWide(bins, interpolation, fill);
    }

    /** torchvision's defaults: 31 bins, nearest. */
    public TrivialAugmentWide() {
        this(31, Interpolation.NEAREST);
    }

    /** {@code bins} bins, nearest. */
    public TrivialAugmentWide(int bins) {
        this(bins, Interpolation.NEAREST);
    }

    /** 31 bins, with {@code interpolation} (torchvision's reference script passes bilinear). */
    public TrivialAugmentWide(Interpolation interpolation) {
        this(31, interpolation);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        int op = (int) random.below(OPS.size());
        if (op == 0 || op >= 12) {
            PolicyOp.named(OPS.get(op)).apply(tile, 0.0, interpolation, fill);
            return;
        }
        double magnitude = magnitude(op, (int) random.below(bins));
        if (op <= 9 && random.below(2) == 1) {
            magnitude = -magnitude;
        }
        PolicyOp.named(OPS.get(op)).apply(tile, magnitude, interpolation, fill);
    }

    /** The magnitude of bin {@code bin} of op {@code op} (an index into {@link #OPS}), as torchvision's float32 tables. */
    public double magnitude(int op, int bin) {
        return switch (op) {
            case 1, 2, 6, 7, 8, 9 -> TorchLinspace.at(0f, 0.99f, bins, bin);
            case 3, 4 -> TorchLinspace.at(0f, 32f, bins, bin);
            case 5 -> TorchLinspace.at(0f, 135f, bins, bin);
            case 10 -> TorchLinspace.posterizeBits(bins, 6, bin);
            case 11 -> TorchLinspace.at(255f, 0f, bins, bin);
            default -> 0.0;
        };
    }

    /** torchvision's {@code _apply_op} for op {@code op} (an index into {@link #OPS}) at {@code magnitude}. */
    public static void applyOp(Tile tile, int op, double magnitude) {
        applyOp(tile, op, magnitude, Interpolation.NEAREST);
    }

    /** As {@link #applyOp(Tile, int, double)}, the warps with {@code interpolation}. */
    public static void applyOp(Tile tile, int op, double magnitude, Interpolation interpolation) {
        PolicyOp.named(OPS.get(op)).apply(tile, magnitude, interpolation);
    }
}
