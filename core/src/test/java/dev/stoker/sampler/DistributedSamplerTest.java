package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DistributedSamplerTest {

    private static DistributedSampler sampler(long n, int replicas, int rank, boolean shuffle, boolean dropLast) {
        return DistributedSampler.builder(n).numReplicas(replicas).rank(rank).shuffle(shuffle).dropLast(dropLast)
                .seed(17).build();
    }

    /** PyTorch's DistributedSampler.__iter__, transcribed literally with lists, given the epoch's list. */
    private static List<Long> pytorch(List<Long> indices, int replicas, int rank, boolean dropLast) {
        int n = indices.size();
        int numSamples = dropLast && n % replicas != 0
                ? (int) Math.ceil((n - replicas) / (double) replicas)
                : (int) Math.ceil(n / (double) replicas);
        int totalSize = numSamples * replicas;
        List<Long> list = new ArrayList<>(indices);
        if (!dropLast) {
            int padding = totalSize - list.size();
            if (padding <= list.size()) {
                list.addAll(list.subList(0, padding));
            } else {
                List<Long> repeated = new ArrayList<>();
                int times = (int) Math.ceil(padding / (double) list.size());
                for (int t = 0; t < times; t++) {
                    repeated.addAll(indices);
                }
                list.addAll(repeated.subList(0, padding));
            }
        } else {
            list = new ArrayList<>(list.subList(0, totalSize));
        }
        List<Long> out = new ArrayList<>();
        for (int i = rank; i < totalSize; i += replicas) {
            out.add(list.get(i));
        }
        return out;
    }

    private static List<Long> list(long[] a) {
        List<Long> out = new ArrayList<>();
        for (long v : a) {
            out.add(v);
        }
        return out;
    }

    @Test
    void tenOverThreeReplicasPadsByWrappingLikePyTorch() {
        assertThat(Drain.epoch(sampler(10, 3, 0, false, false), 0)).containsExactly(0, 3, 6, 9);
        assertThat(Drain.epoch(sampler(10, 3, 1, false, false), 0)).containsExactly(1, 4, 7, 0);
        assertThat(Drain.epoch(sampler(10, 3, 2, false, false), 0)).containsExactly(2, 5, 8, 1);
        assertThat(sampler(10, 3, 0, false, false).size()).isEqualTo(4);
        assertThat(sampler(10, 3, 0, false, false).totalSize()).isEqualTo(12);
    }

    @Test
    void tenOverThreeReplicasWithDropLastTruncatesLikePyTorch() {
        assertThat(Drain.epoch(sampler(10, 3, 0, false, true), 0)).containsExactly(0, 3, 6);
        assertThat(Drain.epoch(sampler(10, 3, 1, false, true), 0)).containsExactly(1, 4, 7);
        assertThat(Drain.epoch(sampler(10, 3, 2, false, true), 0)).containsExactly(2, 5, 8);
        assertThat(sampler(10, 3, 0, false, true).size()).isEqualTo(3);
        assertThat(sampler(10, 3, 0, false, true).totalSize()).isEqualTo(9);
    }

    @Test
    void fewerSamplesThanReplicasRepeatTheListLikePyTorch() {
        // n=2, 5 replicas: num_samples 1, padding 3 > 2, list [0, 1] + ([0, 1] * 2)[:3] = [0, 1, 0, 1, 0].
        long[][] expected = {{0}, {1}, {0}, {1}, {0}};
        for (int rank = 0; rank < 5; rank++) {
            assertThat(Drain.epoch(sampler(2, 5, rank, false, false), 0)).isEqualTo(expected[rank]);
            // With dropLast: ceil((2 - 5) / 5) = 0 samples.
            assertThat(Drain.epoch(sampler(2, 5, rank, false, true), 0)).isEmpty();
            assertThat(sampler(2, 5, rank, false, true).size()).isZero();
        }
    }

    @Test
    void unshuffledMatchesPyTorchForManySizes() {
        for (int n = 0; n <= 40; n++) {
            for (int replicas = 1; replicas <= 9; replicas++) {
                for (boolean dropLast : new boolean[] {false, true}) {
                    List<Long> base = list(Drain.range(0, n));
                    for (int rank = 0; rank < replicas; rank++) {
                        DistributedSampler s = sampler(n, replicas, rank, false, dropLast);
                        List<Long> expected = pytorch(base, replicas, rank, dropLast);
                        assertThat(list(Drain.epoch(s, 3))).as("n=%d replicas=%d rank=%d dropLast=%s",
                                n, replicas, rank, dropLast).isEqualTo(expected);
                        assertThat(s.size()).isEqualTo(expected.size());
                    }
                }
            }
        }
    }

    @Test
    void shuffledIsPyTorchsLayoutOverTheDocumentedPermutation() {
        SplittableRandom random = new SplittableRandom(31);
        for (int trial = 0; trial < 200; trial++) {
            int n = random.nextInt(0, 300);
            int replicas = random.nextInt(1, 12);
            boolean dropLast = random.nextBoolean();
            long seed = random.nextLong();
            long epoch = random.nextLong(0, 100);
            List<Long> shuffled = list(Drain.epoch(RandomSampler.of(n, seed), epoch));
            for (int rank = 0; rank < replicas; rank++) {
                DistributedSampler s = DistributedSampler.builder(n).numReplicas(replicas).rank(rank)
                        .dropLast(dropLast).seed(seed).build();
                assertThat(list(Drain.epoch(s, epoch))).isEqualTo(pytorch(shuffled, replicas, rank, dropLast));
            }
        }
    }

    @Test
    void ranksPartitionTheDatasetUpToPadding() {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            int n = random.nextInt(1, 500);
            int replicas = random.nextInt(1, 16);
            long epoch = random.nextLong(0, 50);
            for (boolean dropLast : new boolean[] {false, true}) {
                int[] seen = new int[n];
                long total = 0;
                for (int rank = 0; rank < replicas; rank++) {
                    DistributedSampler s = sampler(n, replicas, rank, true, dropLast);
                    long[] share = Drain.epoch(s, epoch);
                    assertThat(share).hasSize((int) s.size());
                    for (long i : share) {
                        seen[(int) i]++;
                    }
                    total += share.length;
                }
                long expectedTotal = sampler(n, replicas, 0, true, dropLast).totalSize();
                assertThat(total).isEqualTo(expectedTotal);
                int missing = 0;
                int repeats = 0;
                for (int count : seen) {
                    missing += count == 0 ? 1 : 0;
                    repeats += Math.max(0, count - 1);
                }
                if (dropLast) {
                    assertThat(repeats).as("no index twice with dropLast").isZero();
                    assertThat(missing).isEqualTo(n - (int) expectedTotal).isLessThan(replicas);
                } else {
                    assertThat(missing).as("every index covered").isZero();
                    assertThat(repeats).as("only the padding repeats").isEqualTo((int) expectedTotal - n);
                    assertThat(repeats).isLessThan(replicas);
                }
            }
        }
    }

    @Test
    void sameSeedAndEpochGiveTheSameOrderAndOthersAnother() {
        long[] a = Drain.epoch(sampler(1000, 4, 2, true, false), 5);
        assertThat(Drain.epoch(sampler(1000, 4, 2, true, false), 5)).isEqualTo(a);
        assertThat(Drain.epoch(sampler(1000, 4, 2, true, false), 6)).isNotEqualTo(a);
        DistributedSampler otherSeed = DistributedSampler.builder(1000).numReplicas(4).rank(2).seed(18).build();
        assertThat(Drain.epoch(otherSeed, 5)).isNotEqualTo(a);
        assertThat(a).isNotEqualTo(Drain.epoch(sampler(1000, 4, 2, false, false), 5));
    }

    @Test
    void oneReplicaIsTheRandomSampler() {
        DistributedSampler s = DistributedSampler.builder(777).seed(9).build();
        assertThat(Drain.epoch(s, 4)).isEqualTo(Drain.epoch(RandomSampler.of(777, 9), 4));
    }

    @Test
    void setEpochIsStoredAndUsedByTheNoArgumentIterator() {
        DistributedSampler s = DistributedSampler.builder(100).numReplicas(2).rank(1).build();
        assertThat(s.epoch()).isZero();
        s.setEpoch(12);
        assertThat(s.epoch()).isEqualTo(12);
        assertThat(Drain.all(s.iterator())).isEqualTo(Drain.epoch(s, 12));
        assertThat(Drain.all(s.iterator())).isNotEqualTo(Drain.epoch(s, 0));
    }

    @Test
    void defaultsAreOneShuffledReplicaWithSeedZero() {
        DistributedSampler s = DistributedSampler.builder(50).build();
        assertThat(s.numReplicas()).isEqualTo(1);
        assertThat(s.rank()).isZero();
        assertThat(s.shuffle()).isTrue();
        assertThat(s.seed()).isZero();
        assertThat(s.dropLast()).isFalse();
        assertThat(s.datasetSize()).isEqualTo(50);
    }

    @Test
    void hugeDatasetYieldsInRangeDistinctIndicesWithoutAllocating() {
        long n = 3_000_000_000L;
        DistributedSampler.builder(10).numReplicas(3).rank(1).build().iterator(0).nextLong();
        long before = Drain.allocatedBytes();
        DistributedSampler s = DistributedSampler.builder(n).numReplicas(8).rank(5).seed(1).build();
        PrimitiveIterator.OfLong it = s.iterator(2);
        long[] first = new long[1000];
        for (int i = 0; i < first.length; i++) {
            first[i] = it.nextLong();
        }
        long after = Drain.allocatedBytes();
        if (before >= 0) {
            assertThat(after - before).as("bytes allocated").isLessThan(1 << 20);
        }
        assertThat(s.size()).isEqualTo(375_000_000L);
        Set<Long> distinct = new HashSet<>();
        for (long i : first) {
            assertThat(i).isBetween(0L, n - 1);
            distinct.add(i);
        }
        assertThat(distinct).hasSize(1000);
        // Unshuffled, the arithmetic holds far beyond int range.
        DistributedSampler plain = DistributedSampler.builder(n).numReplicas(7).rank(6).shuffle(false).build();
        assertThat(plain.size()).isEqualTo(428_571_429L);
        assertThat(Drain.take(plain.iterator(0), 3)).containsExactly(6, 13, 20);
        assertThat(plain.totalSize()).isEqualTo(3_000_000_003L);
    }

    @Test
    void rejectsInvalidSettings() {
        assertThatThrownBy(() -> DistributedSampler.builder(10).numReplicas(3).rank(3).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid rank 3").hasMessageContaining("[0, 2]");
        assertThatThrownBy(() -> DistributedSampler.builder(10).numReplicas(3).rank(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid rank -1");
        assertThatThrownBy(() -> DistributedSampler.builder(10).numReplicas(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("numReplicas must be >= 1, got 0");
        assertThatThrownBy(() -> DistributedSampler.builder(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("datasetSize must be >= 0");
    }
}
