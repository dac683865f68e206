package dev.stoker.random;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SeedsTest {

    @Test
    void splitMixIsTheJdksSplitMix64Stream() {
        // SplittableRandom(s).nextLong() is SplitMix64 with the same gamma and finalizer.
        for (long s : new long[] {0, 1, -1, 42, 0x123456789ABCDEFL, Long.MIN_VALUE}) {
            SplittableRandom jdk = new SplittableRandom(s);
            for (int i = 0; i < 100; i++) {
                assertThat(Seeds.splitMix(s, i)).as("seed %d output %d", s, i).isEqualTo(jdk.nextLong());
            }
        }
    }

    @Test
    void splitMixOfSeedZeroMatchesThePublishedFirstOutput() {
        assertThat(Seeds.splitMix(0, 0)).isEqualTo(0xE220A8397B1DCDAFL);
    }

    @Test
    void mixFollowsItsDocumentedFormula() {
        long g = Seeds.GOLDEN_GAMMA;
        long h = Seeds.mix64((Seeds.mix64(7 + g) ^ 3) + g);
        long expected = Seeds.mix64((Seeds.mix64((h ^ 11) + g) ^ 13) + g);
        assertThat(Seeds.mix(7, 3, 11, 13)).isEqualTo(expected);
        // Typo guard: the epoch must not be ignored, nor the order of words.
        assertThat(Seeds.mix(7, 3)).isNotEqualTo(Seeds.mix(7, 4));
        assertThat(Seeds.mix(7, 3, 1, 2)).isNotEqualTo(Seeds.mix(7, 3, 2, 1));
    }

    @Test
    void mixGivesDistinctKeysForNearbyInputs() {
        Set<Long> keys = new HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            for (long epoch = 0; epoch < 50; epoch++) {
                for (long pass = 0; pass < 4; pass++) {
                    keys.add(Seeds.mix(seed, epoch, pass));
                }
            }
        }
        assertThat(keys).hasSize(50 * 50 * 4);
    }

    @Test
    void belowStaysInRangeAndIsUniform() {
        long bound = 7;
        long[] counts = new long[(int) bound];
        for (long i = 0; i < 70_000; i++) {
            long v = Seeds.below(Seeds.splitMix(99, i), bound);
            assertThat(v).isBetween(0L, bound - 1);
            counts[(int) v]++;
        }
        for (long c : counts) {
            assertThat(c).isBetween(9_400L, 10_600L);
        }
    }

    @Test
    void belowIsTheHighWordOfTheProductWhenNotRejected() {
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 10_000; i++) {
            long bits = random.nextLong();
            long bound = i % 2 == 0 ? random.nextLong(1, 1000) : random.nextLong(1, Long.MAX_VALUE);
            long threshold = Long.remainderUnsigned(-bound, bound);
            if (Long.compareUnsigned(bits * bound, threshold) >= 0) {
                BigInteger product = new BigInteger(Long.toUnsignedString(bits)).multiply(BigInteger.valueOf(bound));
                assertThat(Seeds.below(bits, bound)).isEqualTo(product.shiftRight(64).longValueExact());
            }
        }
    }

    @Test
    void belowHandlesTheExtremeBounds() {
        for (long i = 0; i < 1000; i++) {
            long bits = Seeds.splitMix(5, i);
            assertThat(Seeds.below(bits, 1)).isZero();
            assertThat(Seeds.below(bits, Long.MAX_VALUE)).isBetween(0L, Long.MAX_VALUE - 1);
            // A bound just above 2^62 rejects about a quarter of candidates: the redraw path runs.
            assertThat(Seeds.below(bits, (1L << 62) + 1)).isBetween(0L, 1L << 62);
        }
    }

    @Test
    void unitIntervalsHaveTheirDocumentedEnds() {
        assertThat(Seeds.unit(0)).isEqualTo(0.0);
        assertThat(Seeds.unit(-1L)).isLessThan(1.0);
        assertThat(Seeds.unitNonZero(0)).isGreaterThan(0.0);
        assertThat(Seeds.unitNonZero(-1L)).isEqualTo(1.0);
    }
}
