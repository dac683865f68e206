package dev.stoker.cli;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.batch.BatchOp;
import dev.stoker.vision.batch.CutMix;
import dev.stoker.vision.batch.MixUp;
import dev.stoker.vision.batch.RandomChoice;
import dev.stoker.vision.batch.Targets;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;

/**
 * W3-recipe: W3's data and loader with torchvision's reference ImageNet training recipe
 * ({@link ImagePipeline#trainRecipe}: RandomResizedCrop 224, horizontal flip,
 * TrivialAugmentWide (bilinear), ToTensor, Normalize, RandomErasing 0.1) per image, and on each
 * batch MixUp (alpha 0.2) or CutMix (alpha 1.0), one of the two at random, with one-hot targets
 * over W3's 10 classes: the recipe's {@code --mixup-alpha 0.2 --cutmix-alpha 1.0}.
 *
 * <p>The batch op runs in the loop on the delivered batch ({@link #step}), timed, as a Stoker user
 * runs one; the PyTorch peer runs it in its collate function, in the workers, as torchvision
 * 0.14's users write it (0.14 has no {@code transforms.v2}).
 */
final class W3Recipe implements Workload {
    private static final BatchOp MIX = RandomChoice.of(new MixUp(0.2), new CutMix(1.0));
    /** The mixing draws' seed: each batch's draws are keyed by it, the epoch and the batch's index. */
    private static final long MIX_SEED = 19;

    private final W3JpegFolder images;

    /** W3-recipe as defined. */
    W3Recipe() {
        this(W3JpegFolder.SAMPLES);
    }

    /** Over the first {@code samples} images, for tests. */
    W3Recipe(int samples) {
        this.images = new W3JpegFolder(new WorkloadSpec("W3-recipe", "jpeg-folder-recipe",
                WorkloadSpec.Data.MADE_IF_MISSING, 1, W3JpegFolder.BATCH, samples,
                3L * W3JpegFolder.SIZE * W3JpegFolder.SIZE * Float.BYTES),
                () -> ImagePipeline.trainRecipe(W3JpegFolder.SIZE),
                "W3's JPEGs, RandomResizedCrop 224 + flip + TrivialAugmentWide + Normalize + RandomErasing 0.1,"
                        + " MixUp 0.2 / CutMix 1.0 on the batch");
    }

    @Override
    public WorkloadSpec spec() {
        return images.spec();
    }

    @Override
    public String summary() {
        return images.summary();
    }

    @Override
    public String missingFrom(Path folder) {
        return images.missingFrom(folder);
    }

    @Override
    public long samplesPerEpoch() {
        return images.samplesPerEpoch();
    }

    @Override
    public List<Configuration> configurations() {
        return images.configurations();
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        return images.newLoader(c, seed, data);
    }

    @Override
    public void prepare(Path data) {
        images.prepare(data);
    }

    /** MixUp or CutMix on the batch's images, with its one-hot targets mixed alike. */
    @Override
    public void step(Batch batch) {
        try (Arena arena = Arena.ofConfined()) {
            Tensor targets = Targets.oneHot(batch.tensor("label"), W3JpegFolder.CLASSES, arena);
            MIX.apply(batch.tensor("image"), targets, BatchOp.random(MIX_SEED, batch));
        }
    }

    @Override
    public void close() {
        images.close();
    }
}
