package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GaussianFillTest {

    @Test
    void inverseNormalCdfMatchesKnownQuantiles() {
        assertThat(GaussianFill.inverseNormalCdf(0.5)).isEqualTo(0.0);
        assertThat(GaussianFill.inverseNormalCdf(0.975)).isCloseTo(1.959963984540054, within(1e-12));
        assertThat(GaussianFill.inverseNormalCdf(0.025)).isCloseTo(-1.959963984540054, within(1e-12));
        assertThat(GaussianFill.inverseNormalCdf(0.8413447460685429)).isCloseTo(1.0, within(1e-12));
        assertThat(GaussianFill.inverseNormalCdf(0.999)).isCloseTo(3.090232306167813, within(1e-12));
        assertThat(GaussianFill.inverseNormalCdf(1e-10)).isCloseTo(-6.361340902404056, within(1e-9));
        assertThatThrownBy(() -> GaussianFill.inverseNormalCdf(1.0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesAreApproximatelyStandardNormal() {
        float[] x = new float[1 << 22];
        GaussianFill.fill(x, 12345);
        double sum = 0;
        double sumSq = 0;
        long within1 = 0;
        float largest = 0;
        for (float v : x) {
            sum += v;
            sumSq += (double) v * v;
            if (Math.abs(v) <= 1) within1++;
            largest = Math.max(largest, Math.abs(v));
        }
        double mean = sum / x.length;
        double std = Math.sqrt(sumSq / x.length - mean * mean);
        // Standard error of the mean is 1/sqrt(4M) ~ 5e-4: 5 sigma bounds.
        assertThat(mean).isCloseTo(0, within(2.5e-3));
        assertThat(std).isCloseTo(1, within(3e-3));
        assertThat((double) within1 / x.length).isCloseTo(0.6827, within(2e-3));
        float max = GaussianFill.maxMagnitude();
        assertThat(max).isBetween(4.2f, 4.4f);
        assertThat(largest).isLessThanOrEqualTo(max).isGreaterThan(3.5f);
    }

    @Test
    void sameSeedSameValuesOtherSeedOtherValues() {
        float[] a = new float[10_001];
        float[] b = new float[10_001];
        float[] c = new float[10_001];
        GaussianFill.fill(a, 7);
        GaussianFill.fill(b, 7);
        GaussianFill.fill(c, 8);
        assertThat(b).containsExactly(a);
        int same = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] == c[i]) same++;
        }
        assertThat(same).isLessThan(20);
    }

    @Test
    void shorterFillIsAPrefixOfALongerOne() {
        float[] longer = new float[103];
        GaussianFill.fill(longer, 99);
        for (int n = 0; n <= 103; n++) {
            float[] shorter = new float[n];
            GaussianFill.fill(shorter, 99);
            assertThat(shorter).containsExactly(Arrays.copyOf(longer, n));
        }
    }

    @Test
    void segmentFillEqualsArrayFillForEveryLength() {
        SplittableRandom rnd = new SplittableRandom(3);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 50; trial++) {
                int n = rnd.nextInt(0, 600);
                long seed = rnd.nextLong();
                float[] expected = new float[n];
                GaussianFill.fill(expected, seed);
                MemorySegment seg = arena.allocate(n * 4L + 8, 4);
                seg.fill((byte) 0x7f);
                GaussianFill.fill(seg, n, seed);
                float[] got = seg.asSlice(0, n * 4L).toArray(ValueLayout.JAVA_FLOAT);
                assertThat(got).containsExactly(expected);
                // nothing written past count
                assertThat(seg.get(ValueLayout.JAVA_BYTE, n * 4L)).isEqualTo((byte) 0x7f);
            }
        }
    }

    @Test
    void fillsARangeOfAnArrayAndAWholeSegment() {
        float[] whole = new float[10];
        GaussianFill.fill(whole, 5);
        float[] big = new float[20];
        GaussianFill.fill(big, 4, 10, 5);
        assertThat(Arrays.copyOfRange(big, 4, 14)).containsExactly(whole);
        assertThat(big[3]).isZero();
        assertThat(big[14]).isZero();

        float[] onHeap = new float[10];
        GaussianFill.fill(MemorySegment.ofArray(onHeap), 5);
        assertThat(onHeap).containsExactly(whole);
    }

    @Test
    void rejectsCountsPastTheSegment() {
        MemorySegment seg = MemorySegment.ofArray(new float[4]);
        assertThatThrownBy(() -> GaussianFill.fill(seg, 5, 1))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("5 floats");
        assertThatThrownBy(() -> GaussianFill.fill(new float[4], 2, 3, 1))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
