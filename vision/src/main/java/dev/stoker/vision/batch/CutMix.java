package dev.stoker.vision.batch;

import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;

/**
 * torchvision's {@code transforms.v2.CutMix(alpha=1.0)}: one weight {@code lam} from
 * {@code Beta(alpha, alpha)} per batch and a box around a uniform centre, of half-sides
 * {@code int(0.5 sqrt(1 - lam) W)} and {@code int(0.5 sqrt(1 - lam) H)}, clipped to the image;
 * inside the box every image takes the previous image's pixels (the batch rolled by one), and
 * the targets mix with the weight the box leaves, {@code 1 - box area / image area}.
 *
 * <pre>{@code
 * new CutMix().apply(images, targets, BatchOp.random(seed, batch));
 * }</pre>
 *
 * <p>Draws: lam (as {@link MixUp}), then the centre's column and row ({@link SampleRandom#below}).
 *
 * @param alpha the Beta distribution's parameter, positive
 */
public record CutMix(double alpha) implements BatchOp {
    public CutMix {
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("CutMix's alpha is positive, not " + alpha);
        }
    }

    /** torchvision's default, alpha = 1. */
    public CutMix() {
        this(1.0);
    }

    @Override
    public void apply(Tensor images, Tensor targets, SampleRandom random) {
        MixUp.check(images, targets);
        int h = (int) images.shape().dim(2);
        int w = (int) images.shape().dim(3);
        double lam = Beta.sample(alpha, random);
        int rx = (int) random.below(w);
        int ry = (int) random.below(h);
        double r = 0.5 * Math.sqrt(1.0 - lam);
        int rw = (int) (r * w);
        int rh = (int) (r * h);
        cut(images, targets, Math.max(rx - rw, 0), Math.max(ry - rh, 0), Math.min(rx + rw, w), Math.min(ry + rh, h));
    }

    /**
     * Pastes the box {@code [x1, x2) x [y1, y2)} of each previous image and mixes the targets by
     * the area kept: the functional form. Returns the targets' weight, {@code lam_adjusted}.
     */
    public static double cut(Tensor images, Tensor targets, int x1, int y1, int x2, int y2) {
        MixUp.check(images, targets);
        int c = (int) images.shape().dim(1);
        int h = (int) images.shape().dim(2);
        int w = (int) images.shape().dim(3);
        if (x1 < 0 || y1 < 0 || x2 > w || y2 > h || x1 > x2 || y1 > y2) {
            throw new IllegalArgumentException("a box [" + x1 + ", " + x2 + ") x [" + y1 + ", " + y2 + ") in a "
                    + w + "x" + h + " image");
        }
        long per = (long) c * h * w;
        if (x2 > x1) {
            for (int ch = 0; ch < c; ch++) {
                for (int y = y1; y < y2; y++) {
                    Rows.copyFromPrevious(images, per, ((long) ch * h + y) * w + x1, x2 - x1);
                }
            }
        }
        double lam = 1.0 - (double) ((x2 - x1) * (y2 - y1)) / (w * h);
        long classes = targets.shape().dim(1);
        Rows.mixWithPrevious(targets, classes, 0, Math.toIntExact(classes), lam);
        return lam;
    }
}
