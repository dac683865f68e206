package dev.stoker.vision.batch;

import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;

/**
 * torchvision's {@code transforms.v2.MixUp(alpha=1.0)}: one weight {@code lam} from
 * {@code Beta(alpha, alpha)} per batch; every image becomes {@code lam * x[i] + (1 - lam) * x[i - 1]}
 * (the batch rolled by one, so the first image mixes with the last), and every target the same,
 * in float32 as torch computes it.
 *
 * <pre>{@code
 * new MixUp(0.8).apply(images, targets, BatchOp.random(seed, batch));
 * }</pre>
 *
 * @param alpha the Beta distribution's parameter, positive
 */
public record MixUp(double alpha) implements BatchOp {
    public MixUp {
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("MixUp's alpha is positive, not " + alpha);
        }
    }

    /** torchvision's default, alpha = 1 (lam uniform in [0, 1]). */
    public MixUp() {
        this(1.0);
    }

    @Override
    public void apply(Tensor images, Tensor targets, SampleRandom random) {
        check(images, targets);
        mix(images, targets, Beta.sample(alpha, random));
    }

    /** Mixes with the weight {@code lam} given: the functional form, for tests and one's own schedules. */
    public static void mix(Tensor images, Tensor targets, double lam) {
        check(images, targets);
        long per = images.elements() / images.shape().dim(0);
        Rows.mixWithPrevious(images, per, 0, Math.toIntExact(per), lam);
        long classes = targets.shape().dim(1);
        Rows.mixWithPrevious(targets, classes, 0, Math.toIntExact(classes), lam);
    }

    static void check(Tensor images, Tensor targets) {
        Rows.check(images);
        if (targets.shape().rank() != 2 || targets.shape().dim(0) != images.shape().dim(0)
                || targets.dtype() != dev.stoker.tensor.DType.F32) {
            throw new IllegalArgumentException("targets are (N, classes) f32 with N = " + images.shape().dim(0)
                    + ", not " + targets.dtype() + " " + targets.shape() + " (Targets.oneHot makes them)");
        }
    }
}
