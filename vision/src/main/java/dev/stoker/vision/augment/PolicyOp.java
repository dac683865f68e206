package dev.stoker.vision.augment;

import dev.stoker.vision.transform.Tile;

/**
 * The ops of torchvision's auto-augment policies ({@code _apply_op}), by their torchvision
 * names, and the magnitude tables of AutoAugment and RandAugment ({@code _augmentation_space}).
 */
enum PolicyOp {
    IDENTITY("Identity", false), SHEAR_X("ShearX", true), SHEAR_Y("ShearY", true),
    TRANSLATE_X("TranslateX", true), TRANSLATE_Y("TranslateY", true), ROTATE("Rotate", true),
    BRIGHTNESS("Brightness", true), COLOR("Color", true), CONTRAST("Contrast", true), SHARPNESS("Sharpness", true),
    POSTERIZE("Posterize", false), SOLARIZE("Solarize", false), AUTO_CONTRAST("AutoContrast", false),
    EQUALIZE("Equalize", false), INVERT("Invert", false);

    final String torchName;
    final boolean signed;

    PolicyOp(String torchName, boolean signed) {
        this.torchName = torchName;
        this.signed = signed;
    }

    /** Whether the op has a table of magnitudes (the others take 0). */
    boolean hasMagnitudes() {
        return this != IDENTITY && this != AUTO_CONTRAST && this != EQUALIZE && this != INVERT;
    }

    static PolicyOp named(String torchName) {
        for (PolicyOp op : values()) {
            if (op.torchName.equals(torchName)) {
                return op;
            }
        }
        throw new IllegalArgumentException("no auto-augment op " + torchName);
    }

    /** torchvision's {@code _apply_op(img, name, magnitude, NEAREST, fill=None)}. */
    void apply(Tile tile, double magnitude) {
        apply(tile, magnitude, Interpolation.NEAREST);
    }

    /** torchvision's {@code _apply_op(img, name, magnitude, interpolation, fill=None)}. */
    void apply(Tile tile, double magnitude, Interpolation interpolation) {
        apply(tile, magnitude, interpolation, Fill.NONE);
    }

    /** torchvision's {@code _apply_op(img, name, magnitude, interpolation, fill)} on a PIL image. */
    void apply(Tile tile, double magnitude, Interpolation interpolation, Fill fill) {
        switch (this) {
            case IDENTITY -> { }
            case SHEAR_X -> Warp.shearX(tile, magnitude, interpolation, fill);
            case SHEAR_Y -> Warp.shearY(tile, magnitude, interpolation, fill);
            case TRANSLATE_X -> Warp.translate(tile, (int) magnitude, 0, interpolation, fill);
            case TRANSLATE_Y -> Warp.translate(tile, 0, (int) magnitude, interpolation, fill);
            case ROTATE -> Warp.rotate(tile, magnitude, interpolation, fill);
            case BRIGHTNESS -> Adjust.brightness(tile, 1.0 + magnitude);
            case COLOR -> Adjust.saturation(tile, 1.0 + magnitude);
            case CONTRAST -> Adjust.contrast(tile, 1.0 + magnitude);
            case SHARPNESS -> Adjust.sharpness(tile, 1.0 + magnitude);
            case POSTERIZE -> Adjust.posterize(tile, (int) magnitude);
            case SOLARIZE -> Adjust.solarize(tile, magnitude);
            case AUTO_CONTRAST -> Adjust.autocontrast(tile);
            case EQUALIZE -> Adjust.equalize(tile);
            case INVERT -> Adjust.invert(tile);
        }
    }

    /**
     * torchvision's {@code _apply_op} on a uint8 tensor ({@link TensorOps}), as {@link AugMix}
     * runs it: the warps through {@code grid_sample}, the blends in float32. Brightness,
     * posterize, solarize, equalize and invert have the same arithmetic as on a PIL image.
     * {@code fill}: of the warps.
     */
    void applyTensor(Tile tile, double magnitude, Interpolation interpolation, Fill fill) {
        switch (this) {
            case SHEAR_X -> TensorOps.shearX(tile, magnitude, interpolation, fill);
            case SHEAR_Y -> TensorOps.shearY(tile, magnitude, interpolation, fill);
            case TRANSLATE_X -> TensorOps.translate(tile, (int) magnitude, 0, interpolation, fill);
            case TRANSLATE_Y -> TensorOps.translate(tile, 0, (int) magnitude, interpolation, fill);
            case ROTATE -> TensorOps.rotate(tile, magnitude, interpolation, fill);
            case COLOR -> TensorOps.saturation(tile, 1.0 + magnitude);
            case CONTRAST -> TensorOps.contrast(tile, 1.0 + magnitude);
            case SHARPNESS -> TensorOps.sharpness(tile, 1.0 + magnitude);
            case AUTO_CONTRAST -> TensorOps.autocontrast(tile);
            default -> apply(tile, magnitude, interpolation, fill);
        }
    }

    /**
     * Bin {@code bin} of {@code bins} of this op's magnitudes in AugMix's space, for an image
     * {@code width x height}: as {@link #standardMagnitude} but translate to a third of the side
     * and posterize from 4 bits down to 0.
     */
    double augMixMagnitude(int bins, int bin, int width, int height) {
        return switch (this) {
            case TRANSLATE_X -> TorchLinspace.at(0f, (float) (width / 3.0), bins, bin);
            case TRANSLATE_Y -> TorchLinspace.at(0f, (float) (height / 3.0), bins, bin);
            case POSTERIZE -> TorchLinspace.posterizeBits(bins, 4, bin) - 4;
            default -> standardMagnitude(bins, bin, width, height);
        };
    }

    /**
     * Bin {@code bin} of {@code bins} of this op's magnitudes in AutoAugment's and RandAugment's
     * space, for an image {@code width x height}: shear to 0.3, translate to 150/331 of the side,
     * rotate to 30 degrees, the enhancements to 0.9, posterize from 8 bits down to 4.
     */
    double standardMagnitude(int bins, int bin, int width, int height) {
        return switch (this) {
            case SHEAR_X, SHEAR_Y -> TorchLinspace.at(0f, 0.3f, bins, bin);
            case TRANSLATE_X -> TorchLinspace.at(0f, (float) (150.0 / 331.0 * width), bins, bin);
            case TRANSLATE_Y -> TorchLinspace.at(0f, (float) (150.0 / 331.0 * height), bins, bin);
            case ROTATE -> TorchLinspace.at(0f, 30f, bins, bin);
            case BRIGHTNESS, COLOR, CONTRAST, SHARPNESS -> TorchLinspace.at(0f, 0.9f, bins, bin);
            case POSTERIZE -> TorchLinspace.posterizeBits(bins, 4, bin);
            case SOLARIZE -> TorchLinspace.at(255f, 0f, bins, bin);
            default -> 0.0;
        };
    }
}
