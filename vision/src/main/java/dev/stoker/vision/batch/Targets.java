package dev.stoker.vision.batch;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;

/**
 * Soft targets for the batch ops: {@code torch.nn.functional.one_hot(labels, classes)} as f32,
 * what {@link MixUp} and {@link CutMix} mix.
 *
 * <pre>{@code
 * Tensor targets = Targets.oneHot(batch.tensor("label"), 1000, arena);   // (N, 1000) f32
 * }</pre>
 */
public final class Targets {
    private Targets() {}

    /** One-hot f32 targets {@code (N, classes)} for {@code labels}, an {@code (N)} integer tensor, in {@code arena}. */
    public static Tensor oneHot(Tensor labels, int classes, Arena arena) {
        Tensor out = Tensor.allocate(arena, DType.F32, Shape.of(labels.shape().dim(0), classes));
        oneHot(labels, out);
        return out;
    }

    /** Writes the one-hot targets of {@code labels} into {@code out}, an {@code (N, classes)} f32 tensor. */
    public static void oneHot(Tensor labels, Tensor out) {
        if (labels.shape().rank() != 1) {
            throw new IllegalArgumentException("labels are (N), not " + labels.shape());
        }
        long n = labels.shape().dim(0);
        if (out.dtype() != DType.F32 || out.shape().rank() != 2 || out.shape().dim(0) != n) {
            throw new IllegalArgumentException("targets for " + n + " labels are (" + n + ", classes) f32, not "
                    + out.dtype() + " " + out.shape());
        }
        long classes = out.shape().dim(1);
        out.segment().fill((byte) 0);
        for (long i = 0; i < n; i++) {
            long label = labels.getLong(i);
            if (label < 0 || label >= classes) {
                throw new IllegalArgumentException("label " + label + " of sample " + i + " is not one of " + classes
                        + " classes");
            }
            out.setFloat(i * classes + label, 1f);
        }
    }
}
