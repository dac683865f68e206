package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * In a new JVM (a child of this one: what C2 has compiled is the JVM's state) the warm-up gets the
 * vector code compiled allocating a few hundred MB at most (it allocated 1.5-3 GB, every vector a
 * Java object until C2 compiled it), and hands over code that renders workers' images, native
 * slots and all their branches, without allocating vectors (its code, compiled for heap slots and
 * one branch of the taps, boxed every output vector and was thrown away at the first such image).
 */
class VectorWarmupTest {

    @Test
    void theWarmUpAllocatesLittleAndHandsOverCodeThatAllocatesNoVectors() throws Exception {
        assumeTrue(Mac.VECTOR, "no Vector API in this JVM");
        assumeTrue(Mac.wide(), "vectors under 256 bits: the resampler's vector code does not run");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), WarmThenRender.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).as(out).containsAnyOf("outcome=COMPILED", "outcome=GAVE_UP");
        if (VectorMac.bitSize() < 512) {
            // With 256-bit vectors C2 may leave an operation (the two-vector permute) to Java code
            // that allocates: then no round comes out clean and the warm-up hands over at its
            // deadline, as it should. On the 512-bit machines this project runs on, it is compiled.
            assumeTrue(out.contains("outcome=COMPILED"), "the vector code is not allocation-free here: " + out);
        }
        assertThat(out).as(out).contains("outcome=COMPILED");
        assertThat(number(out, "warm-up allocated MB=")).as(out).isLessThan(400);
        assertThat(number(out, "bytes per render=")).as(out).isLessThan(200_000);
    }

    private static long number(String out, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + "(\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The child: warms up, then renders W3-like crops (some flipped, some shrunk by 4 and more) into a native slot. */
    static final class WarmThenRender {
        public static void main(String[] args) throws InterruptedException {
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getTotalThreadAllocatedBytes();
            VectorWarmup.start();
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Mac.vectorReady() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            long warmUp = threads.getTotalThreadAllocatedBytes() - before;
            System.out.println("outcome=" + VectorWarmup.outcome());
            System.out.println("warm-up allocated MB=" + warmUp / (1 << 20));
            int w = 500;
            int h = 375;
            try (Arena arena = Arena.ofConfined()) {
                SourcePixels pixels = WarmupScene.pixels(w, h, arena);
                Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 224, 224));
                Scratch scratch = new Scratch();
                SplittableRandom rnd = new SplittableRandom(11);
                int renders = 60;
                long b0 = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < renders; i++) {
                    int cw = rnd.nextInt(60, w + 1);
                    int ch = rnd.nextInt(60, h + 1);
                    Geometry g = new Geometry(w, h);
                    g.crop(new CropBox(rnd.nextInt(0, h - ch + 1), rnd.nextInt(0, w - cw + 1), ch, cw));
                    if (rnd.nextBoolean()) {
                        g.flipHorizontal();
                    }
                    g.resize(224, 224);
                    Resampler.render(pixels, g, Normalize.IMAGENET, slot, scratch);
                }
                long perRender = (threads.getCurrentThreadAllocatedBytes() - b0) / renders;
                System.out.println("bytes per render=" + perRender);
            }
        }
    }
}
