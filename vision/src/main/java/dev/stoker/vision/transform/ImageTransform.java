package dev.stoker.vision.transform;

/**
 * One geometric step of an image pipeline, with torchvision's semantics. A geometric step does
 * not touch pixels: it changes the {@link Geometry} (what part of the source lands where in the
 * output), drawing whatever it needs from the sample's {@link SampleRandom}; the pixels are
 * resampled once, after the last geometric step, straight into the batch (or into the tile the
 * {@link PixelOp}s work on).
 *
 * <p>Open: a step of one's own is one class.
 *
 * <pre>{@code
 * record RandomVerticalCrop(int rows) implements ImageTransform {
 *     public void apply(Geometry g, SampleRandom r) {
 *         int top = (int) r.below(g.height() - rows + 1);
 *         g.crop(new CropBox(top, 0, rows, g.width()));
 *     }
 *     public SizeEffect sizeEffect() { return SizeEffect.VARIES; }   // the width is the image's
 *     public boolean isRandom() { return true; }
 * }
 * }</pre>
 */
public interface ImageTransform {

    /** Applies this step to {@code geometry}, in the order of the pipeline. */
    void apply(Geometry geometry, SampleRandom random);

    /** What this step does to the output size, declared before any image is seen; by default it keeps it. */
    default SizeEffect sizeEffect() {
        return SizeEffect.KEEPS;
    }

    /** Whether the step draws random numbers. */
    default boolean isRandom() {
        return false;
    }
}
