package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Vector API loop gives the plain loop's sums, at every length and offset (tails included). */
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
}
