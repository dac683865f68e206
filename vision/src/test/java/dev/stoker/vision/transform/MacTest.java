package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Vector API loop gives the plain loop's sums, at every length and offset (tails included), and
 * the resampler is handed over to it once the warm-up has run.
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
            Mac.mac(true, a, src, offset, w, n);
            Mac.mac(false, b, src, offset, w, n);
            assertThat(a).containsExactly(b);
        }
    }

    @Test
    void theResamplerIsHandedToTheVectorLoopAfterItsFirstImages() throws InterruptedException {
        assumeTrue(Mac.VECTOR, "the JVM runs without jdk.incubator.vector");
        // The first images go to the plain loop (unless another test's images went before)...
        for (int i = 0; i < Mac.WARMUP_AFTER_IMAGES; i++) {
            Mac.useVector();
        }
        // ...then the warm-up runs; it gives up waiting after 10 s at the latest, and hands over then too.
        for (int i = 0; i < 1200 && !Mac.useVector(); i++) {
            Thread.sleep(50);
        }
        assertThat(Mac.useVector()).isTrue();
    }

    @Test
    void theBuildRunsTestsWithTheVectorModule() {
        // surefire's argLine carries ${stoker.jvm.flags}; if this fails, the flag was lost.
        assertThat(Mac.VECTOR).isTrue();
    }
}
