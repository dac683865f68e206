package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * In a new JVM (a child of this one: the warm-up runs once per JVM) the plain loops' warm-up
 * renders its images while nothing else renders, and stops at the first image a worker renders,
 * so that it never takes a core from a first batch.
 */
class PlainWarmupTest {

    @Test
    void aloneItRendersAllItsImages() throws Exception {
        String out = child("alone");
        assertThat(number(out, "rendered=")).as(out).isEqualTo(PlainWarmup.RENDERS);
    }

    @Test
    void itStopsAtTheFirstImageAWorkerRenders() throws Exception {
        // with the Vector API's module and without: the first image is counted either way
        for (String modules : new String[] {"--add-modules=jdk.incubator.vector", "--add-modules=java.base"}) {
            String out = child("interrupted", modules);
            long at = number(out, "at the first image=");
            long later = number(out, "later=");
            assertThat(at).as(out).isPositive();
            // the render under way when the image came may still finish; none starts after it
            assertThat(later).as(modules + ": " + out).isLessThanOrEqualTo(at + 1).isLessThan(PlainWarmup.RENDERS);
        }
    }

    private static String child(String mode) throws Exception {
        return child(mode, "--add-modules=java.base");
    }

    private static String child(String mode, String modules) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, modules, "-cp", System.getProperty("java.class.path"),
                Child.class.getName(), mode).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        return out;
    }

    private static long number(String out, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + "(\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1));
    }

    static final class Child {
        public static void main(String[] args) throws InterruptedException {
            Resampler.prepareInBackground();
            long deadline = System.nanoTime() + 30_000_000_000L;
            if (args[0].equals("alone")) {
                while (PlainWarmup.rendered() < PlainWarmup.RENDERS && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                Thread.sleep(200);
                System.out.println("rendered=" + PlainWarmup.rendered());
                return;
            }
            while (PlainWarmup.rendered() < 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            try (Arena arena = Arena.ofConfined()) {
                SourcePixels pixels = WarmupScene.pixels(120, 90, arena);
                Geometry g = new Geometry(120, 90);
                g.resize(32, 32);
                Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 32, 32));
                Resampler.render(pixels, g, Normalize.IMAGENET, slot, new Scratch());   // a worker's first image
            }
            int at = PlainWarmup.rendered();
            Thread.sleep(500);
            System.out.println("at the first image=" + at + " later=" + PlainWarmup.rendered());
        }
    }
}
