package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WeightedRandomSamplerTest {

    @Test
    void withReplacementFrequenciesFollowTheWeights() {
        double[] w = {1, 2, 3, 4, 0};
        WeightedRandomSampler s = new WeightedRandomSampler(w, 200_000, true, 42);
        assertThat(s.size()).isEqualTo(200_000);
        long[] counts = new long[w.length];
        for (long d : Drain.epoch(s, 0)) {
            counts[(int) d]++;
        }
        for (int j = 0; j < 4; j++) {
            // Standard deviation at most 0.0011.
            assertThat(counts[j] / 200_000.0).as("frequency of %d", j).isCloseTo(w[j] / 10, within(0.01));
        }
        assertThat(counts[4]).as("zero weight drawn").isZero();
    }

    @Test
    void zeroWeightsAreNeverDrawn() {
        double[] w = new double[1000];
        for (int j = 0; j < w.length; j += 3) {
            w[j] = 1 + j % 7;
        }
        for (boolean replacement : new boolean[] {true, false}) {
            WeightedRandomSampler s = new WeightedRandomSampler(w, 300, replacement, 5);
            for (long epoch = 0; epoch < 20; epoch++) {
                long[] drawn = Drain.epoch(s, epoch);
                assertThat(drawn).hasSize(300);
                assertThat(Drain.boxed(drawn)).allMatch(i -> i % 3 == 0);
            }
        }
    }

    @Test
    void withoutReplacementDrawsDistinctNonZeroIndices() {
        SplittableRandom random = new SplittableRandom(8);
        for (int trial = 0; trial < 200; trial++) {
            int m = random.nextInt(1, 300);
            double[] w = new double[m];
            int nonZero = 0;
            for (int j = 0; j < m; j++) {
                w[j] = random.nextInt(4) == 0 ? 0 : random.nextDouble(0.01, 10);
                nonZero += w[j] > 0 ? 1 : 0;
            }
            if (nonZero == 0) {
                w[0] = 1;
                nonZero = 1;
            }
            long count = random.nextLong(0, nonZero + 1);
            long[] drawn = Drain.epoch(new WeightedRandomSampler(w, count, false, random.nextLong()), trial);
            assertThat(drawn).hasSize((int) count).doesNotHaveDuplicates();
            assertThat(Drain.boxed(drawn)).allMatch(i -> w[(int) (long) i] > 0);
        }
    }

    @Test
    void withoutReplacementAllNonZeroIsAPermutationOfThem() {
        double[] w = {0, 1, 5, 0, 2};
        long[] drawn = Drain.epoch(new WeightedRandomSampler(w, 3, false, 1), 0);
        assertThat(Drain.sorted(drawn)).containsExactly(1, 2, 4);
    }

    @Test
    void withoutReplacementFirstDrawFollowsTheWeightsAndSecondConditionally() {
        double[] w = {1, 2, 7};
        WeightedRandomSampler s = new WeightedRandomSampler(w, 2, false, 99);
        int epochs = 50_000;
        long[] first = new long[3];
        long secondIsZeroAfterTwo = 0;
        long firstIsTwo = 0;
        for (long e = 0; e < epochs; e++) {
            long[] d = Drain.epoch(s, e);
            first[(int) d[0]]++;
            if (d[0] == 2) {
                firstIsTwo++;
                if (d[1] == 0) {
                    secondIsZeroAfterTwo++;
                }
            }
        }
        for (int j = 0; j < 3; j++) {
            assertThat(first[j] / (double) epochs).isCloseTo(w[j] / 10, within(0.01));
        }
        // Sequential sampling: after 2 is removed, 0 comes next with probability 1 / (1 + 2).
        assertThat(secondIsZeroAfterTwo / (double) firstIsTwo).isCloseTo(1.0 / 3, within(0.015));
    }

    @Test
    void drawsAreAPureFunctionOfSeedAndEpoch() {
        double[] w = new double[500];
        for (int j = 0; j < w.length; j++) {
            w[j] = j + 1;
        }
        for (boolean replacement : new boolean[] {true, false}) {
            long[] a = Drain.epoch(new WeightedRandomSampler(w, 100, replacement, 3), 0);
            assertThat(Drain.epoch(new WeightedRandomSampler(w, 100, replacement, 3), 0)).isEqualTo(a);
            assertThat(Drain.epoch(new WeightedRandomSampler(w, 100, replacement, 3), 1)).isNotEqualTo(a);
            assertThat(Drain.epoch(new WeightedRandomSampler(w, 100, replacement, 4), 0)).isNotEqualTo(a);
        }
    }

    @Test
    void drawsStayTheSameAcrossVersions() {
        // Saved runs depend on these exact draws: change them only on purpose.
        assertThat(Drain.epoch(new WeightedRandomSampler(new double[] {1, 2, 3, 4}, 8, true, 42), 0))
                .containsExactly(3, 3, 1, 0, 3, 2, 3, 2);
        assertThat(Drain.epoch(new WeightedRandomSampler(new double[] {1, 2, 3, 4, 5, 6}, 4, false, 42), 0))
                .containsExactly(1, 3, 4, 5);
    }

    @Test
    void withoutReplacementTakesTheSmallestDocumentedKeys() {
        double[] w = {0.5, 0, 3, 1, 2, 8, 0.25};
        long stream = Seeds.mix(5, 2);
        Integer[] byKey = {0, 2, 3, 4, 5, 6};
        java.util.Arrays.sort(byKey, java.util.Comparator.comparingDouble(
                j -> -StrictMath.log(Seeds.unitNonZero(Seeds.splitMix(stream, j))) / w[j]));
        long[] expected = java.util.Arrays.stream(byKey).limit(4).mapToLong(j -> j).toArray();
        assertThat(Drain.epoch(new WeightedRandomSampler(w, 4, false, 5), 2)).isEqualTo(expected);
    }

    @Test
    void copiesItsWeights() {
        double[] w = {1, 0};
        WeightedRandomSampler s = new WeightedRandomSampler(w, 50, true, 0);
        w[1] = 1e9;
        assertThat(Drain.epoch(s, 0)).containsOnly(0L);
        assertThat(s.weights()).containsExactly(1, 0);
    }

    @Test
    void rejectsInvalidWeightsAndCounts() {
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[] {1, -0.5}, 1, true, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weights[1] is -0.5").hasMessageContaining("non-negative and finite");
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[] {Double.NaN}, 1, true, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weights[0] is NaN");
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[] {1, Double.POSITIVE_INFINITY}, 1, true, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weights[1] is Infinity");
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[] {0, 0}, 1, true, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("all zero");
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[0], 1, true, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[] {1}, -1, true, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("numSamples must be >= 0");
        assertThatThrownBy(() -> new WeightedRandomSampler(new double[] {1, 0, 2}, 3, false, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot draw 3 samples without replacement")
                .hasMessageContaining("only 2 of the 3 weights are non-zero");
    }
}
