package dev.stoker.vision.batch;

import dev.stoker.loader.Batch;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;

/**
 * A step on the assembled batch, after the loader: {@link MixUp} and {@link CutMix}
 * (torchvision's {@code transforms.v2}), which mix each image with its neighbour and the labels
 * in the same proportion. Images and soft targets change in place.
 *
 * <pre>{@code
 * BatchOp mix = RandomChoice.of(new MixUp(0.8), new CutMix(1.0));    // timm's / DeiT's recipe
 * for (Batch batch : loader) {
 *     try (batch) {
 *         Tensor targets = Targets.oneHot(batch.tensor("label"), 1000, arena);  // (N, 1000) f32
 *         mix.apply(batch.tensor("image"), targets, BatchOp.random(seed, batch));
 *         // train on images and targets
 *     }
 * }
 * }</pre>
 *
 * <p>The draws come from {@link #random(long, Batch)}, keyed by (seed, epoch, batch index): the
 * loader's order makes a batch's samples a pure function of the same three, so the mixing does
 * not depend on the number of workers and resumes exactly.
 *
 * <p>Implementations are immutable and may be shared.
 */
public interface BatchOp {
    /** The word that keeps batch-op streams apart from the per-sample transform streams. */
    long BATCH_STREAM = 0x6261_7463_686D_6978L; // "batchmix"

    /**
     * Mixes {@code images}, an {@code (N, C, H, W)} tensor (f32, f16 or bf16), and {@code targets},
     * its {@code (N, classes)} f32 soft labels, in place.
     */
    void apply(Tensor images, Tensor targets, SampleRandom random);

    /** The stream of batch {@code batchIndex} of {@code epoch} under {@code seed}. */
    static SampleRandom random(long seed, long epoch, long batchIndex) {
        return SampleRandom.ofKey(Seeds.mix(seed, epoch, BATCH_STREAM, batchIndex));
    }

    /** The stream of {@code batch}: its epoch and its index in the epoch, under {@code seed}. */
    static SampleRandom random(long seed, Batch batch) {
        return random(seed, batch.epoch(), batch.index());
    }
}
