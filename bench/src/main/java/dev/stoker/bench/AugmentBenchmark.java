package dev.stoker.bench;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.augment.Adjust;
import dev.stoker.vision.augment.AugMix;
import dev.stoker.vision.augment.AutoAugment;
import dev.stoker.vision.augment.ColorJitter;
import dev.stoker.vision.augment.Interpolation;
import dev.stoker.vision.augment.RandAugment;
import dev.stoker.vision.augment.RandomErasing;
import dev.stoker.vision.augment.RandomVerticalFlip;
import dev.stoker.vision.augment.TrivialAugmentWide;
import dev.stoker.vision.augment.Warp;
import dev.stoker.vision.batch.CutMix;
import dev.stoker.vision.batch.MixUp;
import dev.stoker.vision.batch.Targets;
import dev.stoker.vision.decode.DecodeOptions;
import dev.stoker.vision.decode.ImageDecoder;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-thread cost of the pixel ops on a 224x224 output tile (one operation = one op on one
 * image, the tile restored first), of RandomErasing's erase on a (3, 224, 224) f32 image, of the
 * batch ops on a (64, 3, 224, 224) f32 batch, and of torchvision's reference recipe end to end
 * ({@link ImagePipeline#trainRecipe}) against the plain training transform. Every row has a twin
 * in {@code bench/python/augment_ops.py} (torchvision 0.14 / PIL, the same parameters, the same
 * names), and {@code bench/python/augment_table.py} joins the two into BENCHMARKS.md's table:
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar AugmentBenchmark -p images=DIR -rf csv -rff /tmp/stoker-ops.csv
 * /usr/bin/python3 bench/python/augment_ops.py --images DIR --csv /tmp/torch-ops.csv
 * /usr/bin/python3 bench/python/augment_table.py /tmp/stoker-ops.csv /tmp/torch-ops.csv
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector"})
public class AugmentBenchmark {
    /** torchvision's defaults: 3 chains of 1 to 3 ops, bilinear. */
    private static final AugMix AUGMIX = new AugMix();
    private static final ColorJitter JITTER = new ColorJitter(0.4, 0.4, 0.4, 0.1);
    private static final AutoAugment AUTO = new AutoAugment();
    private static final RandAugment RAND = new RandAugment();
    private static final TrivialAugmentWide TRIVIAL = new TrivialAugmentWide();
    private static final RandomVerticalFlip VFLIP = new RandomVerticalFlip(1);
    /** augment_ops.py's perspective: the corners of the tile, and where they land. */
    private static final int[][] CORNERS = {{0, 0}, {223, 0}, {223, 223}, {0, 223}};
    private static final int[][] MOVED = {{10, 5}, {215, 12}, {220, 210}, {3, 218}};
    private static final float[] ZERO = new float[3];

    /** The pixel op measured by {@link #op}, and its tile; a state of its own so that only {@code op} runs per op. */
    @State(Scope.Thread)
    public static class PixelOpState {
        @Param({"brightness", "contrast", "saturation", "hue", "colorjitter", "sharpness", "grayscale", "invert",
            "solarize", "posterize", "autocontrast", "equalize", "blur5", "blur23", "vflip", "rotate", "shear",
            "translate", "affine", "perspective", "autoaugment", "randaugment", "trivialaugment", "augmix"})
        public String op;
        byte[] source;
        Tile tile;
        long sample;

        @Setup(Level.Trial)
        public void setUp() {
            source = new byte[3 * 224 * 224];
            new SplittableRandom(7).nextBytes(source);
            tile = Tile.of(224, 224, source);
        }
    }

    /** A folder of JPEGs (searched recursively, the first 50 by path) for train and recipe; empty: 50 generated ones. */
    @Param({""})
    public String images;

    private long sample;
    private Arena arena;
    private List<MemorySegment> jpegs;
    private ImageDecoder decoder;
    private ImagePipeline train;
    private ImagePipeline recipe;
    private Tensor slot;
    private Tensor image;
    private Tensor batch;
    private Tensor targets;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        arena = Arena.ofShared();
        jpegs = new ArrayList<>();
        for (byte[] b : images.isEmpty() ? ImagePipelineBenchmark.generate(50, 1234) : read(Path.of(images), 50)) {
            MemorySegment m = arena.allocate(b.length);
            MemorySegment.copy(MemorySegment.ofArray(b), 0, m, 0, b.length);
            jpegs.add(m);
        }
        decoder = ImageDecoder.create(DecodeOptions.defaults());
        train = ImagePipeline.builder().decoder(decoder).add(new dev.stoker.vision.transform.RandomResizedCrop(224))
                .add(new dev.stoker.vision.transform.RandomHorizontalFlip()).build();
        recipe = ImagePipeline.builder().decoder(decoder).add(new dev.stoker.vision.transform.RandomResizedCrop(224))
                .add(new dev.stoker.vision.transform.RandomHorizontalFlip()).add(new TrivialAugmentWide(Interpolation.BILINEAR))
                .add(new RandomErasing(0.1)).build();
        slot = Tensor.allocate(arena, DType.F32, Shape.of(64, 3, 224, 224)).select(5);
        image = Tensor.allocate(arena, DType.F32, Shape.of(3, 224, 224));
        batch = Tensor.allocate(arena, DType.F32, Shape.of(64, 3, 224, 224));
        Tensor labels = Tensor.allocate(arena, DType.I64, Shape.of(64));
        for (int i = 0; i < 64; i++) {
            labels.setLong(i, i % 10);
        }
        targets = Targets.oneHot(labels, 1000, arena);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        train.close();
        recipe.close();
        decoder.close();
        arena.close();
    }

    /** One pixel op on a 224x224 tile (the copy that restores the tile included: about 150 KB). */
    @Benchmark
    public Tile op(PixelOpState s) {
        Tile tile = s.tile;
        System.arraycopy(s.source, 0, tile.pixels(), 0, s.source.length);
        switch (s.op) {
            case "brightness" -> Adjust.brightness(tile, 1.3);
            case "contrast" -> Adjust.contrast(tile, 1.3);
            case "saturation" -> Adjust.saturation(tile, 1.3);
            case "hue" -> Adjust.hue(tile, 0.1);
            case "colorjitter" -> JITTER.apply(tile, SampleRandom.of(1, 0, s.sample++));
            case "sharpness" -> Adjust.sharpness(tile, 1.5);
            case "grayscale" -> Adjust.grayscale(tile);
            case "invert" -> Adjust.invert(tile);
            case "solarize" -> Adjust.solarize(tile, 128);
            case "posterize" -> Adjust.posterize(tile, 4);
            case "autocontrast" -> Adjust.autocontrast(tile);
            case "equalize" -> Adjust.equalize(tile);
            case "blur5" -> Adjust.gaussianBlur(tile, 5, 1.0);
            case "blur23" -> Adjust.gaussianBlur(tile, 23, 1.0);
            case "vflip" -> VFLIP.apply(tile, SampleRandom.of(1, 0, s.sample++));
            case "rotate" -> Warp.rotate(tile, 30);
            case "shear" -> Warp.shearX(tile, 0.3);
            case "translate" -> Warp.translate(tile, 12, -7);
            case "affine" -> Warp.affine(tile, 15, 10, -5, 1.1, 5, 3, Interpolation.NEAREST);
            case "perspective" -> Warp.perspective(tile, CORNERS, MOVED, Interpolation.BILINEAR);
            case "autoaugment" -> AUTO.apply(tile, SampleRandom.of(1, 0, s.sample++));
            case "randaugment" -> RAND.apply(tile, SampleRandom.of(1, 0, s.sample++));
            case "trivialaugment" -> TRIVIAL.apply(tile, SampleRandom.of(1, 0, s.sample++));
            case "augmix" -> AUGMIX.apply(tile, SampleRandom.of(1, 0, s.sample++));
            default -> throw new IllegalArgumentException("no op " + s.op);
        }
        return tile;
    }

    /** Decode + RandomResizedCrop + flip + Normalize into a slot: the plain training transform. */
    @Benchmark
    public Tensor train() {
        train.apply(nextJpeg(), "bench", slot, SampleRandom.of(1, 0, sample++));
        return slot;
    }

    /** The same with TrivialAugmentWide (bilinear) and RandomErasing(0.1): torchvision's reference recipe. */
    @Benchmark
    public Tensor recipe() {
        recipe.apply(nextJpeg(), "bench", slot, SampleRandom.of(1, 0, sample++));
        return slot;
    }

    /** RandomErasing's erase of an 80x70 rectangle (about a tenth of the image) in a (3, 224, 224) f32 image, in place. */
    @Benchmark
    public Tensor erasing() {
        RandomErasing.erase(image, 50, 60, 80, 70, ZERO);
        return image;
    }

    /** MixUp on a (64, 3, 224, 224) f32 batch and its (64, 1000) targets. */
    @Benchmark
    public Tensor mixUp() {
        MixUp.mix(batch, targets, 0.3);
        return batch;
    }

    /** CutMix of a quarter of the image on the same batch. */
    @Benchmark
    public Tensor cutMix() {
        CutMix.cut(batch, targets, 56, 56, 168, 168);
        return batch;
    }

    /** The first {@code n} JPEGs under {@code dir} by path, as augment_ops.py's --images takes them. */
    private static List<byte[]> read(Path dir, int n) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".jpg") && Files.isRegularFile(p))
                    .sorted(Comparator.comparing(Path::toString)).limit(n).toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no .jpg files under " + dir + " (AugmentBenchmark's images)");
        }
        List<byte[]> out = new ArrayList<>();
        for (Path f : files) {
            out.add(Files.readAllBytes(f));
        }
        return out;
    }

    private MemorySegment nextJpeg() {
        MemorySegment m = jpegs.get(next);
        next = next + 1 == jpegs.size() ? 0 : next + 1;
        return m;
    }
}
