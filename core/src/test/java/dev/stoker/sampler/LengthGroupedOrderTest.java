package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LengthGroupedOrderTest {

    @Test
    void isAPermutationSortedLongestFirstWithinEachMegaBatchAndTheLongestFirst() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 50; trial++) {
            int n = random.nextInt(1, 500);
            int batch = random.nextInt(1, 20);
            int mult = random.nextInt(1, 6);
            int[] lengths = LongTailLengths.of(n, 50, 1, 2000, trial);
            long[] order = LengthGroupedOrder.of(lengths, batch, mult, trial, trial % 3);
            long[] sorted = order.clone();
            Arrays.sort(sorted);
            assertThat(sorted).isEqualTo(Drain.range(0, n));
            int max = Arrays.stream(lengths).max().orElseThrow();
            assertThat(lengths[(int) order[0]]).isEqualTo(max);
            int mega = batch * mult;
            for (int start = 0; start < n; start += mega) {
                int end = Math.min(n, start + mega);
                // descending, except the swapped-in first element of the first and the longest mega-batch
                for (int i = start + 2; i < end; i++) {
                    assertThat(lengths[(int) order[i - 1]]).isGreaterThanOrEqualTo(lengths[(int) order[i]]);
                }
            }
        }
    }

    @Test
    void isAPureFunctionOfSeedAndEpoch() {
        int[] lengths = LongTailLengths.of(1000, 100, 1, 4000, 3);
        long[] order = LengthGroupedOrder.of(lengths, 8, 50, 1, 2);
        assertThat(LengthGroupedOrder.of(lengths, 8, 50, 1, 2)).isEqualTo(order);
        assertThat(LengthGroupedOrder.of(lengths, 8, 50, 1, 3)).isNotEqualTo(order);
        assertThat(LengthGroupedOrder.of(lengths, 8, 50, 2, 2)).isNotEqualTo(order);
    }

    @Test
    void groupsSimilarLengths() {
        int[] lengths = LongTailLengths.of(10_000, 100, 1, 4000, 11);
        long[] grouped = LengthGroupedOrder.of(lengths, 16, 50, 0, 0);
        long[] shuffled = new long[lengths.length];
        FeistelPermutation p = FeistelPermutation.of(lengths.length, 0, 0);
        for (int i = 0; i < shuffled.length; i++) {
            shuffled[i] = p.apply(i);
        }
        // padded tokens of batches of 16: grouping wastes far less than a plain shuffle
        assertThat(padding(lengths, grouped, 16) * 5).isLessThan(padding(lengths, shuffled, 16));
    }

    private static long padding(int[] lengths, long[] order, int batch) {
        long pad = 0;
        for (int s = 0; s < order.length; s += batch) {
            int e = Math.min(order.length, s + batch);
            int max = 0;
            for (int i = s; i < e; i++) {
                max = Math.max(max, lengths[(int) order[i]]);
            }
            for (int i = s; i < e; i++) {
                pad += max - lengths[(int) order[i]];
            }
        }
        return pad;
    }

    @Test
    void defaultMultiplierIsHuggingFaces() {
        assertThat(LengthGroupedOrder.defaultMegaBatchMult(10, 8)).isEqualTo(1);
        assertThat(LengthGroupedOrder.defaultMegaBatchMult(320, 8)).isEqualTo(10);
        assertThat(LengthGroupedOrder.defaultMegaBatchMult(1_000_000, 8)).isEqualTo(50);
        assertThat(LengthGroupedOrder.of(new int[0], 4, 1, 0, 0)).isEmpty();
        assertThatThrownBy(() -> LengthGroupedOrder.of(new int[] {1, -1}, 4, 1, 0, 0))
                .hasMessageContaining("sample 1");
    }
}
