package dev.stoker.bench;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.decode.DecodeSession;
import dev.stoker.vision.decode.DecodedImage;
import dev.stoker.vision.decode.ImageDecoder;
import dev.stoker.vision.transform.Geometry;
import dev.stoker.vision.transform.Normalize;
import dev.stoker.vision.transform.Resampler;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Scratch;
import dev.stoker.vision.transform.SourcePixels;
import dev.stoker.vision.transform.Tile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The resample and normalize of W3's training transform alone, one thread, on images decoded
 * beforehand: each image's own RandomResizedCrop 224 + flip geometry (the draws of sample
 * {@code i}, seed 7), rendered into an f32 slot ({@code slot}) or into the 8-bit tile and then
 * normalized into the slot ({@code tile}, the path a pipeline with pixel ops takes). Thread CPU
 * time, the best of the rounds, so that other processes on a shared machine count little; a
 * checksum of the outputs, to compare two builds' pixels.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar \
 *     dev.stoker.bench.ResampleCost DIR [images=150] [rounds=8]
 * </pre>
 */
public final class ResampleCost {
    private static final int SIZE = 224;

    private ResampleCost() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ResampleCost DIR [images] [rounds]");
            System.exit(2);
        }
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 150;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        List<Path> paths;
        try (Stream<Path> files = Files.walk(Path.of(args[0]))) {
            paths = files.filter(p -> p.toString().endsWith(".jpg")).sorted().limit(count).toList();
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined(); ImageDecoder decoder = ImageDecoder.create();
             ImagePipeline train = ImagePipeline.train(SIZE)) {
            List<SourcePixels> sources = new ArrayList<>();
            List<Geometry> geometries = new ArrayList<>();
            for (int i = 0; i < paths.size(); i++) {
                try (DecodeSession s = decoder.session()) {
                    DecodedImage image = s.decode(Files.readAllBytes(paths.get(i)), paths.get(i).toString());
                    MemorySegment copy = arena.allocate(image.pixels().byteSize());
                    copy.copyFrom(image.pixels());
                    sources.add(SourcePixels.whole(copy, image.width(), image.height()));
                    geometries.add(train.plan(image.width(), image.height(), SampleRandom.of(7, 0, i)));
                }
            }
            Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, SIZE, SIZE));
            Scratch scratch = new Scratch();
            for (String mode : List.of("slot", "tile")) {
                double best = Double.MAX_VALUE;
                long sum = 0;
                for (int round = 0; round <= rounds; round++) {
                    long checksum = 0;
                    long t0 = mx.getCurrentThreadCpuTime();
                    for (int i = 0; i < sources.size(); i++) {
                        if (mode.equals("slot")) {
                            Resampler.render(sources.get(i), geometries.get(i), Normalize.IMAGENET, slot, scratch);
                        } else {
                            Tile tile = scratch.tile();
                            Resampler.render(sources.get(i), geometries.get(i), tile, scratch);
                            Resampler.write(tile, Normalize.IMAGENET, slot, scratch);
                        }
                        if (round == 0) {
                            checksum = checksum * 31 + slot.segment().asByteBuffer().hashCode();
                        }
                    }
                    double micros = (mx.getCurrentThreadCpuTime() - t0) / 1e3 / sources.size();
                    if (round == 0) {
                        sum = checksum;  // round 0 warms up and keeps the checksum
                    } else {
                        best = Math.min(best, micros);
                    }
                }
                System.out.printf("%-5s %8.1f us/image   checksum %016x%n", mode, best, sum);
            }
            System.out.printf("%d images of %s, RandomResizedCrop %d + flip, best of %d rounds, thread CPU time%n",
                    sources.size(), args[0], SIZE, rounds);
        }
    }
}
