package dev.stoker.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** A slot's device buffer, outgrown by batches of varying length, is replaced a few times, not at every new longest batch. */
class BufferGrowthTest {

    private static int replacements(long[] sizes) {
        long have = sizes[0]; // the first batch's size, exactly
        int n = 0;
        for (long s : sizes) {
            if (s > have) {
                have = PrefetchSlot.grownSize(s);
                assertThat(have).isGreaterThanOrEqualTo(s);
                n++;
            }
        }
        return n;
    }

    @Test
    void batchesGrowingAPercentAtATimeReplaceTheBufferAFewTimes() {
        long[] sizes = new long[200];
        long s = 8L << 20;
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = s;
            s += s / 100;
        }
        assertThat(replacements(sizes)).isBetween(1, 10); // 199 new maxima
    }

    @Test
    void randomLengthsReplaceItOnlyWhileTheLongestIsStillBeingFound() {
        for (long seed = 1; seed <= 20; seed++) {
            Random r = new Random(seed);
            long[] sizes = new long[5000];
            for (int i = 0; i < sizes.length; i++) sizes[i] = (1L << 20) + r.nextLong(64L << 20);
            assertThat(replacements(sizes)).as("seed %d", seed).isLessThanOrEqualTo(6);
        }
    }

    @Test
    void aGrownBufferIsAWholeNumberOfSteps() {
        assertThat(PrefetchSlot.grownSize(1)).isEqualTo(2L << 20);
        assertThat(PrefetchSlot.grownSize(100L << 20)).isEqualTo(126L << 20);
    }
}
