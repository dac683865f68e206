package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Vector API loop gives the plain loop's sums, at every length and offset (tails included);
 * a new JVM's first images, on the plain loops, leave the Vector API uninitialized.
 */
class MacTest {

    @Test
    void vectorLoopEqualsPlainLoop() {
        assumeTrue(Mac.VECTOR, "the JVM runs without jdk.incubator.vector");
        SplittableRandom rnd = new SplittableRandom(3);
        for (int trial = 0; trial < 300; trial++) {
            int n = rnd.nextInt(0, 200);
            int offset = rnd.nextInt(0, 50);
            int[] src = new int[offset + n];
            for (int i = 0; i < src.length; i++) {
                src[i] = rnd.nextInt(256);
            }
            int w = rnd.nextInt(-(1 << 22), 1 << 22);
            int[] a = new int[n];
            int[] b = new int[n];
            for (int i = 0; i < n; i++) {
                a[i] = b[i] = rnd.nextInt();
            }
            VectorMac.mac(a, src, offset, w, n);
            for (int e = 0; e < n; e++) {
                b[e] += src[offset + e] * w;
            }
            assertThat(a).containsExactly(b);
        }
    }

    @Test
    void theBuildRunsTestsWithTheVectorModule() {
        // surefire's argLine carries ${stoker.jvm.flags}; if this fails, the flag was lost.
        assertThat(Mac.VECTOR).isTrue();
    }

    @Test
    void theWarmUpHandsOverToTheVectorCodeOnceItRuns() throws InterruptedException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Mac.VECTOR, "no Vector API in this JVM");
        VectorWarmup.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Mac.vectorReady() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        org.assertj.core.api.Assertions.assertThat(Mac.vectorReady()).as("handed over within 30 s").isTrue();
        org.assertj.core.api.Assertions.assertThat(Mac.vectorNow()).isTrue();
    }

    /**
     * In a new JVM (a child of this one, with the Vector API's module: which classes are loaded is
     * the JVM's state) the first images render on the plain loops without loading the Vector API,
     * whose classes and set-up were on the first image's path when {@link Mac} asked for the
     * vector width as it was initialized.
     */
    @Test
    void aNewJvmsFirstImagesLeaveTheVectorApiUnloaded() throws Exception {
        assumeTrue(Mac.VECTOR, "no Vector API in this JVM");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector", "-Xlog:class+load=info:stdout",
                "-cp", System.getProperty("java.class.path"), FirstImages.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).contains("rendered: vectorReady=false");
        String beforeTheEnd = out.substring(0, out.indexOf("rendered: "));
        assertThat(beforeTheEnd).contains("dev.stoker.vision.transform.Mac ")
                .doesNotContain("jdk.incubator.vector.IntVector ");
    }

    /** The child of the test above: renders three images as a new JVM's first. */
    static final class FirstImages {
        public static void main(String[] args) {
            int w = 120;
            int h = 90;
            byte[] rgb = new byte[w * h * 3];
            for (int i = 0; i < rgb.length; i++) {
                rgb[i] = (byte) (i * 31);
            }
            Scratch scratch = new Scratch();
            Tensor slot = new Tensor(MemorySegment.ofArray(new float[3 * 32 * 32]), DType.F32, Shape.of(3, 32, 32));
            for (int k = 0; k < 3; k++) {
                Geometry g = new Geometry(w, h);
                g.crop(new CropBox(2 * k, k, 80, 100));
                g.resize(32, 32);
                Resampler.render(MemorySegment.ofArray(rgb), w, h, g, Normalize.IMAGENET, slot, scratch);
            }
            System.out.println("rendered: vectorReady=" + Mac.vectorReady());
        }
    }
}
