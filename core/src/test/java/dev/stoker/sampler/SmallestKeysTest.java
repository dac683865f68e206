package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SmallestKeysTest {

    @Test
    void keepsTheSmallestInAscendingOrder() {
        SplittableRandom random = new SplittableRandom(21);
        for (int trial = 0; trial < 200; trial++) {
            int m = random.nextInt(0, 400);
            int capacity = random.nextInt(0, m + 1);
            // Few distinct keys, so that ties happen and must go to the smaller item.
            double[] keys = random.ints(m, 0, 20).asDoubleStream().toArray();
            SmallestKeys s = new SmallestKeys(capacity);
            for (int j : shuffled(m, random)) {
                s.offer(keys[j], j);
            }
            long[] expected = IntStream.range(0, m).boxed()
                    .sorted(Comparator.<Integer>comparingDouble(j -> keys[j]).thenComparing(j -> j))
                    .limit(capacity).mapToLong(j -> j).toArray();
            assertThat(s.ascendingItems()).isEqualTo(expected);
        }
    }

    @Test
    void zeroCapacityKeepsNothing() {
        SmallestKeys s = new SmallestKeys(0);
        s.offer(1.0, 1);
        assertThat(s.ascendingItems()).isEmpty();
    }

    private static int[] shuffled(int m, SplittableRandom random) {
        int[] a = IntStream.range(0, m).toArray();
        for (int i = m - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return Arrays.copyOf(a, m);
    }
}
