package dev.stoker.examples.djl;

// DJL and Stoker both name a Dataset, a Batch and a Shape. This file imports DJL's Batch and Shape
// (the training side speaks DJL) and writes Stoker's Batch in full where it needs it; the Dataset
// it names is Stoker's (DJL's is not needed by name), and Stoker's Shape is not needed at all.
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import dev.stoker.data.Dataset;
import dev.stoker.djl.NdArrays;
import dev.stoker.djl.StokerDataset;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.formats.folder.LabeledFile;
import dev.stoker.loader.DataLoader;
import dev.stoker.vision.ImageFile;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegDataset;
import java.nio.file.Path;

/**
 * An image folder, as torchvision's {@code ImageFolder} reads it, trained on with DJL: Stoker's
 * workers decode the JPEGs and apply the training transforms (random resized crop, flip, ImageNet
 * normalize) straight into each batch's memory, and DJL's PyTorch engine trains on that memory
 * as it is, through {@link StokerDataset}.
 *
 * <p>The folder is made first ({@link ColourFolder}): three classes of small JPEGs, told apart by
 * their colour. The model is one linear layer over the pixels. The program checks that the loss
 * on the whole folder fell to under a third of what it was before training, and fails (exit
 * code 1) otherwise.
 */
public final class ImageFolderDjl {
    private static final int SIZE = 24;     // images are 32x32 on disk, 24x24 after the transforms
    private static final int BATCH = 8;
    private static final int EPOCHS = 4;

    public static void main(String[] args) throws Exception {
        ImageFolder folder = ColourFolder.write(Path.of("target", "images"), 16);
        System.out.println("image-folder-djl: " + folder.files().size() + " images, classes " + folder.classes());
        Dataset<LabeledFile> files = folder.fileDataset();   // paths and labels; the decoders read each file

        // Pipelines hold decoders and scratch arrays shared by the workers: close them after the loaders.
        try (ImagePipeline train = ImagePipeline.train(SIZE);    // RandomResizedCrop, RandomHorizontalFlip, Normalize
             ImagePipeline eval = ImagePipeline.eval(SIZE)) {    // Resize, CenterCrop, Normalize
            JpegDataset<LabeledFile> trainImages = JpegDataset.ofFiles(files, ImageFolderDjl::file, train);
            JpegDataset<LabeledFile> evalImages = JpegDataset.ofFiles(files, ImageFolderDjl::file, eval);

            try (DataLoader<ImageSample> trainLoader = DataLoader.builder(trainImages)
                         .batchSize(BATCH).shuffle(true).seed(7).numWorkers(2).build();
                 DataLoader<ImageSample> evalLoader = DataLoader.builder(evalImages)
                         .batchSize(16).numWorkers(2).build();
                 Model model = Model.newInstance("colours", "PyTorch")) {
                Engine.getEngine("PyTorch").setRandomSeed(1);   // the same initial weights on every run
                int classes = folder.classes().size();
                model.setBlock(new SequentialBlock()
                        .add(Blocks.batchFlattenBlock())                     // (B, 3, 24, 24) -> (B, 1728)
                        .add(Linear.builder().setUnits(classes).build()));
                DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                        .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.001f)).build());

                try (Trainer trainer = model.newTrainer(config)) {
                    trainer.initialize(new Shape(BATCH, 3, SIZE, SIZE));
                    // Batches are {image: (8, 3, 24, 24) f32, label: (8) i64}: by default the first
                    // field is DJL's data and the others its labels.
                    StokerDataset dataset = new StokerDataset(trainLoader);

                    double before = evaluate(trainer, evalLoader, "before training");
                    double after = before;
                    for (int epoch = 0; epoch < EPOCHS; epoch++) {
                        for (Batch batch : trainer.iterateDataset(dataset)) {   // one epoch per call
                            try (batch) {            // closing it gives the batch's memory back to Stoker
                                EasyTrain.trainBatch(trainer, batch);
                                trainer.step();
                            }
                        }
                        after = evaluate(trainer, evalLoader, "after epoch " + epoch);
                    }
                    if (!(after < before / 3)) {
                        throw new IllegalStateException("image-folder-djl: the loss went from " + before + " to "
                                + after + ", not below a third of it");
                    }
                }
                System.out.println("image-folder-djl: ok, " + trainLoader.stats().batches() + " training batches"
                        + " decoded by " + trainLoader.numWorkers() + " workers");
            }
        }
    }

    /** How a file of the folder becomes an image for the pipeline: its bytes, its label, a name for errors. */
    private static ImageFile file(LabeledFile f) {
        return new ImageFile(f.path(), f.label());
    }

    /**
     * The mean loss and the accuracy over the whole folder. Stoker's batches are wrapped as
     * NDArrays by hand here (no copy), to show the lower level {@link StokerDataset} is made of.
     */
    private static double evaluate(Trainer trainer, DataLoader<ImageSample> evalLoader, String when) {
        double lossSum = 0;
        long correct = 0;
        long seen = 0;
        for (dev.stoker.loader.Batch batch : evalLoader) {
            try (batch; NDManager m = trainer.getManager().newSubManager()) {
                NDArray images = NdArrays.wrap(m, batch.tensor("image"));
                NDArray labels = NdArrays.wrap(m, batch.tensor("label"));
                NDArray logits = trainer.evaluate(new NDList(images)).singletonOrThrow();
                long n = labels.getShape().get(0);
                lossSum += trainer.getLoss().evaluate(new NDList(labels), new NDList(logits)).getFloat() * n;
                correct += logits.argMax(1).eq(labels).sum().getLong();
                seen += n;
            }
        }
        double loss = lossSum / seen;
        System.out.printf("image-folder-djl: %-15s loss %.4f, accuracy %d/%d%n", when, loss, correct, seen);
        return loss;
    }
}
