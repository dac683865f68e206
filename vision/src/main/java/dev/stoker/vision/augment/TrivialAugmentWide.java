package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.List;

/**
 * torchvision's {@code TrivialAugmentWide(num_magnitude_bins=31)} with nearest neighbours and
 * black fill: per image, one of fourteen ops chosen uniformly, at a magnitude chosen uniformly
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
 */
public record TrivialAugmentWide(int bins) implements PixelOp {
    /** The ops in torchvision's order. */
    public static final List<String> OPS = List.of("Identity", "ShearX", "ShearY", "TranslateX", "TranslateY",
            "Rotate", "Brightness", "Color", "Contrast", "Sharpness", "Posterize", "Solarize", "AutoContrast",
            "Equalize");

    public TrivialAugmentWide {
        if (bins < 2) {
            throw new IllegalArgumentException("TrivialAugmentWide needs at least 2 magnitude bins, not " + bins);
        }
    }

    /** torchvision's default, 31 bins. */
    public TrivialAugmentWide() {
        this(31);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        int op = (int) random.below(OPS.size());
        if (op == 0 || op >= 12) {
            applyOp(tile, op, 0.0);
            return;
        }
        double magnitude = magnitude(op, (int) random.below(bins));
        if (op <= 9 && random.below(2) == 1) {
            magnitude = -magnitude;
        }
        applyOp(tile, op, magnitude);
    }

    /** The magnitude of bin {@code bin} of op {@code op} (an index into {@link #OPS}), as torchvision's float32 tables. */
    public double magnitude(int op, int bin) {
        return switch (op) {
            case 1, 2, 6, 7, 8, 9 -> linspace(0f, 0.99f, bin);
            case 3, 4 -> linspace(0f, 32f, bin);
            case 5 -> linspace(0f, 135f, bin);
            case 10 -> 8 - (int) Math.rint((float) bin / ((bins - 1) / 6f));
            case 11 -> linspace(255f, 0f, bin);
            default -> 0.0;
        };
    }

    /** torchvision's {@code _apply_op} for op {@code op} at {@code magnitude}. */
    public static void applyOp(Tile tile, int op, double magnitude) {
        switch (op) {
            case 0 -> { }
            case 1 -> Warp.shearX(tile, magnitude);
            case 2 -> Warp.shearY(tile, magnitude);
            case 3 -> Warp.translate(tile, (int) magnitude, 0);
            case 4 -> Warp.translate(tile, 0, (int) magnitude);
            case 5 -> Warp.rotate(tile, magnitude);
            case 6 -> Adjust.brightness(tile, 1.0 + magnitude);
            case 7 -> Adjust.saturation(tile, 1.0 + magnitude);
            case 8 -> Adjust.contrast(tile, 1.0 + magnitude);
            case 9 -> Adjust.sharpness(tile, 1.0 + magnitude);
            case 10 -> Adjust.posterize(tile, (int) magnitude);
            case 11 -> Adjust.solarize(tile, magnitude);
            case 12 -> Adjust.autocontrast(tile);
            case 13 -> Adjust.equalize(tile);
            default -> throw new IllegalArgumentException("no TrivialAugmentWide op " + op);
        }
    }

    /**
     * {@code torch.linspace(start, end, bins)[i]} in float32, to the bit as torch 1.13's CPU kernel
     * gives it on an AVX2 build (torchvision 0.14's tables): while 16 values remain, two vectors of
     * 8, each lane {@code base + k * step}; the rest one by one, each a fused multiply-add from the
     * nearer end.
     */
    private float linspace(float start, float end, int i) {
        float step = (end - start) / (bins - 1);
        int vectored = bins / 16 * 16;
        if (i < vectored) {
            int i0 = i / 8 * 8;
            return fromNearerEnd(start, end, step, i0) + (i - i0) * step;
        }
        return fromNearerEnd(start, end, step, i);
    }

    private float fromNearerEnd(float start, float end, float step, int i) {
        return i < bins / 2 ? Math.fma(step, (float) i, start) : Math.fma(-step, (float) (bins - i - 1), end);
    }
}
