package dev.stoker.vision.transform;

/**
 * torchvision's {@code RandomHorizontalFlip(p)}: mirrors the image left to right when one draw
 * in [0, 1) is below {@code p}.
 *
 * @param p the probability of a flip, in [0, 1]
 */
public record RandomHorizontalFlip(double p) implements ImageTransform {
    public RandomHorizontalFlip {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("a flip probability is in [0, 1], not " + p);
        }
    }

    /** Flips half the time. */
    public RandomHorizontalFlip() {
        this(0.5);
    }

    @Override
    public void apply(Geometry geometry, SampleRandom random) {
        if (random.nextDouble() < p) {
            geometry.flipHorizontal();
        }
    }

    @Override
    public boolean isRandom() {
        return true;
    }
}
