package dev.stoker.vision.transform;

import dev.stoker.tensor.Tensor;

/**
 * A step on the finished {@code (3, H, W)} slot, after {@code Normalize}: torchvision's
 * transforms that come after {@code ToTensor} in a recipe, such as {@code RandomErasing}. The
 * slot's dtype is the batch's (f32, f16, bf16, or u8 for raw pixels).
 *
 * <p>Draws come from the sample's {@link SampleRandom}, after those of the geometric and pixel
 * steps. Implementations are shared by the worker threads: keep them immutable.
 */
public interface TensorOp {

    /** Changes {@code slot}, a {@code (3, H, W)} tensor, in place. */
    void apply(Tensor slot, SampleRandom random);

    /** Whether the op draws random numbers; by default it does. */
    default boolean isRandom() {
        return true;
    }
}
