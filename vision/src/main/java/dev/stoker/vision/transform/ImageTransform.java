package dev.stoker.vision.transform;

/**
 * One geometric step of an image pipeline, with torchvision's semantics. A transform does not
 * touch pixels: it changes the {@link Geometry} (what part of the source lands where in the
 * output), drawing whatever it needs from the sample's {@link SampleRandom}; the pixels are
 * resampled once, at the end, straight into the batch.
 */
public sealed interface ImageTransform permits RandomResizedCrop, Resize, CenterCrop, RandomHorizontalFlip {

    /** Applies this step to {@code geometry}, in the order of the pipeline. */
    void apply(Geometry geometry, SampleRandom random);

    /** Whether the step draws random numbers. */
    default boolean isRandom() {
        return false;
    }
}
