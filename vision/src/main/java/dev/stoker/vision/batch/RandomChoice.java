package dev.stoker.vision.batch;

import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;
import java.util.List;

/**
 * torchvision's {@code transforms.v2.RandomChoice}: one of the ops per batch, chosen uniformly
 * (one draw), as the recipes pick MixUp or CutMix.
 *
 * <pre>{@code
 * BatchOp mix = RandomChoice.of(new MixUp(0.8), new CutMix(1.0));
 * }</pre>
 *
 * @param ops the choices, at least one
 */
public record RandomChoice(List<BatchOp> ops) implements BatchOp {
    public RandomChoice {
        ops = List.copyOf(ops);
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("RandomChoice needs at least one op");
        }
    }

    public static RandomChoice of(BatchOp... ops) {
        return new RandomChoice(List.of(ops));
    }

    @Override
    public void apply(Tensor images, Tensor targets, SampleRandom random) {
        ops.get((int) random.below(ops.size())).apply(images, targets, random);
    }
}
