package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AliasTableTest {

    @Test
    void tableProbabilitiesEqualTheNormalizedWeights() {
        SplittableRandom random = new SplittableRandom(13);
        for (int trial = 0; trial < 200; trial++) {
            int k = random.nextInt(1, 300);
            double[] w = new double[k];
            double sum = 0;
            for (int j = 0; j < k; j++) {
                // Spread over many orders of magnitude to stress the rounding.
                w[j] = Math.pow(10, random.nextDouble(-6, 6));
                sum += w[j];
            }
            AliasTable t = AliasTable.of(w);
            assertThat(t.outcomes()).isEqualTo(k);
            for (int j = 0; j < k; j++) {
                assertThat(t.probabilityOf(j)).isCloseTo(w[j] / sum, within(1e-12));
            }
        }
    }

    @Test
    void hugeWeightsDoNotOverflow() {
        AliasTable t = AliasTable.of(new double[] {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE / 2});
        assertThat(t.probabilityOf(0)).isCloseTo(0.4, within(1e-12));
        assertThat(t.probabilityOf(2)).isCloseTo(0.2, within(1e-12));
    }

    @Test
    void samplesFollowTheWeights() {
        AliasTable t = AliasTable.of(new double[] {1, 0.5, 2.5});
        int[] counts = new int[3];
        for (long i = 0; i < 400_000; i++) {
            counts[t.sample(Seeds.splitMix(1, 2 * i), Seeds.splitMix(1, 2 * i + 1))]++;
        }
        assertThat(counts[0] / 400_000.0).isCloseTo(0.25, within(0.005));
        assertThat(counts[1] / 400_000.0).isCloseTo(0.125, within(0.005));
        assertThat(counts[2] / 400_000.0).isCloseTo(0.625, within(0.005));
    }
}
