package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** {@link SampleRandom#gamma}: the moments of Gamma(alpha, 1), below and above 1, and the same draws for the same key. */
class SampleRandomTest {

    @Test
    void gammaHasTheMomentsOfGammaAlphaOne() {
        for (double alpha : new double[] {0.2, 0.5, 1.0, 2.5, 7.0}) {
            SampleRandom r = SampleRandom.of(3, 0, (long) (alpha * 10));
            int n = 40_000;
            double sum = 0;
            double sumSq = 0;
            for (int i = 0; i < n; i++) {
                double g = r.gamma(alpha);
                assertThat(g).isGreaterThanOrEqualTo(0);
                sum += g;
                sumSq += g * g;
            }
            double mean = sum / n;
            double variance = sumSq / n - mean * mean;
            // mean alpha, variance alpha; the mean's standard error is sqrt(alpha / n), under 0.014 here
            assertThat(mean).as("alpha " + alpha).isCloseTo(alpha, within(5 * Math.sqrt(alpha / n)));
            assertThat(variance).as("alpha " + alpha).isCloseTo(alpha, within(0.08 * alpha + 0.02));
        }
    }

    @Test
    void gammaDrawsDependOnTheKeyAlone() {
        SampleRandom a = SampleRandom.of(5, 2, 9);
        SampleRandom b = SampleRandom.of(5, 2, 9);
        for (int i = 0; i < 100; i++) {
            assertThat(a.gamma(0.7)).isEqualTo(b.gamma(0.7));
        }
        assertThat(SampleRandom.of(5, 2, 10).gamma(0.7)).isNotEqualTo(SampleRandom.of(5, 2, 9).gamma(0.7));
    }

    @Test
    void gammaRefusesAShapeThatIsNotPositive() {
        assertThatThrownBy(() -> SampleRandom.of(1, 0, 0).gamma(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> SampleRandom.of(1, 0, 0).gamma(Double.NaN)).hasMessageContaining("positive");
    }
}
