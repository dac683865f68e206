package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SubsetRandomSamplerTest {

    @Test
    void yieldsEachGivenIndexOncePerEpoch() {
        SplittableRandom random = new SplittableRandom(4);
        for (int trial = 0; trial < 200; trial++) {
            long[] indices = random.longs(random.nextInt(0, 500), 0, 1L << 40).toArray();
            SubsetRandomSampler s = new SubsetRandomSampler(indices, random.nextLong());
            assertThat(s.size()).isEqualTo(indices.length);
            long[] order = Drain.epoch(s, random.nextLong(0, 100));
            assertThat(Drain.sorted(order)).isEqualTo(Drain.sorted(indices));
        }
    }

    @Test
    void keepsRepeatedIndices() {
        long[] order = Drain.epoch(new SubsetRandomSampler(new long[] {5, 5, 9}, 1), 0);
        assertThat(Drain.sorted(order)).containsExactly(5, 5, 9);
    }

    @Test
    void orderIsAPureFunctionOfSeedAndEpochAndIsShuffled() {
        long[] indices = Drain.range(1000, 2000);
        long[] a = Drain.epoch(new SubsetRandomSampler(indices, 42), 0);
        assertThat(Drain.epoch(new SubsetRandomSampler(indices, 42), 0)).isEqualTo(a);
        assertThat(Drain.epoch(new SubsetRandomSampler(indices, 42), 1)).isNotEqualTo(a);
        assertThat(Drain.epoch(new SubsetRandomSampler(indices, 43), 0)).isNotEqualTo(a);
        assertThat(a).isNotEqualTo(indices);
    }

    @Test
    void permutesPositionsWithTheDocumentedPermutation() {
        long[] indices = {10, 20, 30, 40, 50, 60, 70};
        FeistelPermutation p = FeistelPermutation.of(indices.length, 3, 8);
        long[] order = Drain.epoch(new SubsetRandomSampler(indices, 3), 8);
        for (int i = 0; i < indices.length; i++) {
            assertThat(order[i]).isEqualTo(indices[(int) p.apply(i)]);
        }
    }

    @Test
    void copiesItsInput() {
        long[] indices = {1, 2, 3};
        SubsetRandomSampler s = new SubsetRandomSampler(indices, 0);
        indices[0] = 99;
        assertThat(Drain.sorted(Drain.epoch(s, 0))).containsExactly(1, 2, 3);
        s.indices()[1] = 99;
        assertThat(s.indices()).containsExactly(1, 2, 3);
    }

    @Test
    void emptySubsetYieldsNothing() {
        assertThat(Drain.epoch(new SubsetRandomSampler(new long[0], 0), 0)).isEmpty();
    }

    @Test
    void rejectsNegativeIndices() {
        assertThatThrownBy(() -> new SubsetRandomSampler(new long[] {0, -3}, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("indices[1] is -3");
    }
}
