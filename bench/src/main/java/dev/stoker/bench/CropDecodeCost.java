package dev.stoker.bench;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The four decode modes of an {@link ImagePipeline} on a folder of JPEGs, one thread: the cost of
 * each (the best of the rounds, in thread CPU time, so that other processes on a shared machine
 * do not count) and how far each one's output is from the exact mode's (PIL's pixels), in 8-bit
 * levels. The modes: exact (whole image, full size), DCT scaling, crop decode, both.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar \
 *     dev.stoker.bench.CropDecodeCost DIR [images=150] [train|eval] [rounds=6]
 * </pre>
 */
public final class CropDecodeCost {
    private static final int SIZE = 224;
    private static final float[] STD = {0.229f, 0.224f, 0.225f};

    private CropDecodeCost() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: CropDecodeCost DIR [images] [train|eval] [rounds]");
            System.exit(2);
        }
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 150;
        boolean eval = args.length > 2 && args[2].equals("eval");
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 6;
        List<byte[]> images = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of(args[0]))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".jpg")).sorted().limit(count).toList()) {
                images.add(Files.readAllBytes(p));
            }
        }
        Map<String, ImagePipeline> modes = new LinkedHashMap<>();
        for (String mode : List.of("exact", "dct", "crop", "crop+dct")) {
            ImagePipeline.Builder b = ImagePipeline.builder();
            if (eval) {
                b.add(Resize.shorterSide(256)).add(new CenterCrop(SIZE));
            } else {
                b.add(new RandomResizedCrop(SIZE)).add(new RandomHorizontalFlip());
            }
            modes.put(mode, b.dctScaling(mode.contains("dct")).cropDecode(mode.startsWith("crop")).build());
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, SIZE, SIZE));
            Map<String, float[][]> outputs = new LinkedHashMap<>();
            Map<String, Double> best = new LinkedHashMap<>();
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, ImagePipeline> e : modes.entrySet()) {
                    float[][] out = new float[images.size()][];
                    long t0 = mx.getCurrentThreadCpuTime();
                    for (int i = 0; i < images.size(); i++) {
                        e.getValue().apply(images.get(i), "image " + i, slot, SampleRandom.of(7, 0, i));
                        if (round == 0) {
                            out[i] = slot.segment().toArray(ValueLayout.JAVA_FLOAT);
                        }
                    }
                    double micros = (mx.getCurrentThreadCpuTime() - t0) / 1e3 / images.size();
                    if (round == 0) {
                        outputs.put(e.getKey(), out);  // round 0 warms up and keeps the outputs
                    } else {
                        best.merge(e.getKey(), micros, Math::min);
                    }
                }
            }
            System.out.printf("%d JPEGs of %s, %s, best of %d rounds, thread CPU time%n", images.size(), args[0],
                    eval ? "Resize 256 + CenterCrop 224" : "RandomResizedCrop 224 + flip", rounds);
            float[][] exact = outputs.get("exact");
            for (String mode : modes.keySet()) {
                float[][] other = outputs.get(mode);
                double sum = 0;
                double max = 0;
                long n = 0;
                for (int i = 0; i < exact.length; i++) {
                    for (int k = 0; k < exact[i].length; k++) {
                        double d = Math.abs(exact[i][k] - other[i][k]) * STD[k / (SIZE * SIZE)] * 255;
                        sum += d;
                        max = Math.max(max, d);
                        n++;
                    }
                }
                System.out.printf("%-9s %8.1f us/image   vs exact: mean %.3f levels, max %.0f%n", mode, best.get(mode),
                        sum / n, max);
            }
        }
        modes.values().forEach(ImagePipeline::close);
    }
}
