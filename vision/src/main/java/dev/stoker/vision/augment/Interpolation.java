package dev.stoker.vision.augment;

/**
 * How the warps ({@link Warp}: rotate, shear, translate, affine) read the source between pixels:
 * torchvision's {@code InterpolationMode.NEAREST} (the default of its transforms) or
 * {@code BILINEAR} (what its reference training script passes), each as Pillow computes it.
 */
public enum Interpolation {
    /** The nearest source pixel: Pillow's fixed-point affine loop. */
    NEAREST,
    /** A weighted mean of the four nearest source pixels, truncated: Pillow's {@code bilinear_filter32RGB}. */
    BILINEAR
}
