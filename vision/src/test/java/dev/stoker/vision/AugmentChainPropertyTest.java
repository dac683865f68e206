package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.augment.AugMix;
import dev.stoker.vision.augment.AutoAugment;
import dev.stoker.vision.augment.ColorJitter;
import dev.stoker.vision.augment.Fill;
import dev.stoker.vision.augment.GaussianBlur;
import dev.stoker.vision.augment.Interpolation;
import dev.stoker.vision.augment.RandAugment;
import dev.stoker.vision.augment.RandomAdjustSharpness;
import dev.stoker.vision.augment.RandomAffine;
import dev.stoker.vision.augment.RandomAutocontrast;
import dev.stoker.vision.augment.RandomEqualize;
import dev.stoker.vision.augment.RandomErasing;
import dev.stoker.vision.augment.RandomGrayscale;
import dev.stoker.vision.augment.RandomPerspective;
import dev.stoker.vision.augment.RandomPosterize;
import dev.stoker.vision.augment.RandomRotation;
import dev.stoker.vision.augment.RandomSolarize;
import dev.stoker.vision.augment.TrivialAugmentWide;
import dev.stoker.vision.batch.BatchOp;
import dev.stoker.vision.batch.CutMix;
import dev.stoker.vision.batch.MixUp;
import dev.stoker.vision.batch.RandomChoice;
import dev.stoker.vision.batch.Targets;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.Normalize;
import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.RandomCrop;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Random chains of geometric, pixel, tensor and batch ops under a loader: the output has the
 * declared shape and stays in range, and the augmented pixels are the same with 0, 1 or 3
 * workers and after a resume from mid-epoch (on another number of workers).
 */
class AugmentChainPropertyTest {
    private static final long SEED = 41;
    private static final int SAMPLES = 14;
    private static final int BATCH = 4;

    private static final List<Function<SplittableRandom, PixelOp>> PIXEL_OPS = List.of(
            r -> new ColorJitter(r.nextDouble(0, 0.8), r.nextDouble(0, 0.8), r.nextDouble(0, 0.8), r.nextDouble(0, 0.5)),
            r -> new RandomGrayscale(r.nextDouble()),
            r -> new RandomPerspective(r.nextDouble(), r.nextDouble(), r.nextBoolean() ? Interpolation.BILINEAR : Interpolation.NEAREST),
            r -> new GaussianBlur(1 + 2 * r.nextInt(4), 0.1, 0.1 + r.nextDouble(3)),
            r -> new RandomSolarize(r.nextInt(257), r.nextDouble()),
            r -> new RandomPosterize(r.nextInt(9), r.nextDouble()),
            r -> new RandomAutocontrast(r.nextDouble()),
            r -> new RandomEqualize(r.nextDouble()),
            r -> new RandomAdjustSharpness(r.nextDouble(3), r.nextDouble()),
            r -> {    // the fills from draws already made: an extra draw would change the chains the seed gives
                boolean bilinear = r.nextBoolean();
                return new TrivialAugmentWide(bilinear ? Interpolation.BILINEAR : Interpolation.NEAREST)
                        .fill(bilinear ? Fill.of(90) : Fill.NONE);
            },
            r -> new RandAugment(1 + r.nextInt(3), r.nextInt(31)),
            r -> new AutoAugment(),
            r -> new AugMix(1 + r.nextInt(10), 1 + r.nextInt(4), r.nextInt(5) - 1, r.nextDouble(0.2, 2), r.nextBoolean(),
                    r.nextBoolean() ? Interpolation.NEAREST : Interpolation.BILINEAR)
                    .fill(r.nextBoolean() ? Fill.NONE : Fill.of(r.nextInt(256), r.nextInt(256), r.nextInt(256))),
            r -> {
                double lo = r.nextDouble(180);
                return new RandomRotation(-lo, r.nextDouble(180), Interpolation.BILINEAR)
                        .fill(Fill.of((int) lo, 255 - (int) lo, 40));
            },
            r -> RandomAffine.of(r.nextDouble(45)).translate(r.nextDouble(0.3), r.nextDouble(0.3))
                    .scale(0.7, 0.7 + r.nextDouble(0.6)).shear(-10, 10, -5, 5));

    /** A random chain: its pipeline, its batch op (or null), and a word for failures. */
    record Chain(ImagePipeline pipeline, BatchOp batchOp, int size, String description) {}

    static Chain chain(SplittableRandom r) {
        int size = 16 + r.nextInt(20);
        ImagePipeline.Builder b = ImagePipeline.builder().normalize(Normalize.NONE);
        if (r.nextBoolean()) {
            b.add(new RandomResizedCrop(size));
        } else {
            int more = r.nextInt(8);    // odd: a RandomCrop, padded by 0 to 2, from the one draw
            b.add(Resize.shorterSide(size + more)).add(more % 2 == 0 ? new CenterCrop(size)
                    : new RandomCrop(size).padding(more % 3));
        }
        if (r.nextBoolean()) {
            b.add(new RandomHorizontalFlip());
        }
        for (int k = r.nextInt(5); k > 0; k--) {
            b.add(PIXEL_OPS.get(r.nextInt(PIXEL_OPS.size())).apply(r));
        }
        if (r.nextBoolean()) {
            float v = (float) r.nextDouble();
            b.add(new RandomErasing(r.nextDouble(), 0.02, 0.33, 0.3, 3.3, new float[] {v, v, v}));
        }
        BatchOp op = switch (r.nextInt(4)) {
            case 0 -> new MixUp(r.nextDouble(0.1, 2));
            case 1 -> new CutMix(r.nextDouble(0.1, 2));
            case 2 -> RandomChoice.of(new MixUp(0.8), new CutMix(1.0));
            default -> null;
        };
        ImagePipeline p = b.build();
        return new Chain(p, op, size, p + " then " + op);
    }

    @Test
    void shapesRangesWorkersAndResume() {
        SplittableRandom r = new SplittableRandom(2026);
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        try (BufferPool pool = BufferPool.builder().name("chains").build()) {
            for (int trial = 0; trial < 16; trial++) {
                Chain c = chain(r);
                for (String kind : List.of("AugMix", "TrivialAugmentWide", "RandomPerspective")) {
                    if (c.description().contains(kind + "[")) {
                        kinds.add(kind);
                    }
                }
                try (ImagePipeline p = c.pipeline()) {
                    assertThat(p.outputShape()).as(c.description()).isEqualTo(Shape.of(3, c.size(), c.size()));
                    JpegDataset<EncodedImage> ds = JpegDataset.of(JpegDatasetTest.images(SAMPLES, -1), p);
                    Map<String, float[]> serial = run(ds, pool, 0, c, -1, null);
                    assertThat(serial).as(c.description()).hasSize(2 * 4);   // two epochs of four batches
                    for (float[] values : serial.values()) {
                        for (float v : values) {
                            assertThat(v).as(c.description()).isBetween(0f, 1f);
                        }
                    }
                    for (int workers : new int[] {1, 3}) {
                        assertThat(run(ds, pool, workers, c, -1, null)).as(c.description() + ", workers " + workers)
                                .containsExactlyEntriesOf(serial);
                    }
                    // Stop after two batches of the first epoch on 3 workers, go on from the state on 1.
                    LoaderState[] state = new LoaderState[1];
                    Map<String, float[]> before = run(ds, pool, 3, c, 2, state);
                    Map<String, float[]> after = run(ds, pool, 1, c, -1, state);
                    Map<String, float[]> resumed = new LinkedHashMap<>(before);
                    resumed.putAll(after);
                    assertThat(resumed).as(c.description() + ", resumed").containsExactlyEntriesOf(serial);
                }
            }
            assertThat(pool.lentCount()).isZero();
        }
        assertThat(kinds).as("the chains drawn include the ops with working copies of their own")
                .containsExactly("AugMix", "RandomPerspective", "TrivialAugmentWide");
    }

    /**
     * Two epochs (from {@code restore}'s state, when given): "epoch/batch" to the batch's images
     * and, with a batch op, its mixed targets. With {@code stopAfter} &gt;= 0, stops after that many
     * batches and leaves the loader's state in {@code state[0]}.
     */
    private static Map<String, float[]> run(JpegDataset<EncodedImage> ds, BufferPool pool, int workers, Chain c,
                                            int stopAfter, LoaderState[] stateOrRestore) {
        Map<String, float[]> out = new LinkedHashMap<>();
        try (DataLoader<ImageSample> loader = DataLoader.builder(ds).batchSize(BATCH).shuffle(true).seed(SEED)
                .numWorkers(workers).pool(pool).build(); Arena arena = Arena.ofConfined()) {
            if (stopAfter < 0 && stateOrRestore != null) {
                loader.restore(stateOrRestore[0]);
            }
            int delivered = 0;
            long lastEpoch = -1;
            while (lastEpoch < 1) {
                for (Batch b : loader) {
                    lastEpoch = b.epoch();
                    try (b) {
                        Tensor images = b.tensor("image");
                        assertThat(images.shape()).isEqualTo(Shape.of(b.indices().length, 3, c.size(), c.size()));
                        float[] values = images.toFloatArray();
                        if (c.batchOp() != null) {
                            Tensor targets = Targets.oneHot(b.tensor("label"), 3, arena);
                            c.batchOp().apply(images, targets, BatchOp.random(SEED, b));
                            values = concat(images.toFloatArray(), targets.toFloatArray());
                        }
                        out.put(b.epoch() + "/" + b.index() + " " + Arrays.toString(b.indices()), values);
                    }
                    if (++delivered == stopAfter) {
                        stateOrRestore[0] = loader.state();
                        return out;
                    }
                }
            }
        }
        return out;
    }

    private static float[] concat(float[] a, float[] b) {
        float[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
