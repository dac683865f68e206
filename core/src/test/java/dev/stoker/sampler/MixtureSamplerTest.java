package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MixtureSamplerTest {

    /** How often each index of the concatenation appears in {@code indices}. */
    private static Map<Long, Integer> histogram(long[] indices) {
        Map<Long, Integer> h = new HashMap<>();
        for (long i : indices) {
            h.merge(i, 1, Integer::sum);
        }
        return h;
    }

    private static long[] perSource(MixtureSampler s, long[] indices) {
        long[] n = new long[s.sourceSizes().length];
        for (long i : indices) {
            n[s.sourceOf(i)]++;
        }
        return n;
    }

    @Test
    void withoutSharesEverySampleOfEverySourceComesOncePerEpoch() {
        MixtureSampler s = MixtureSampler.builder(5, 0, 7, 3).seed(1).build();
        assertThat(s.counts()).containsExactly(5, 0, 7, 3);
        long[] epoch = Drain.epoch(s, 0);
        assertThat(epoch).hasSize(15);
        assertThat(Arrays.stream(epoch).sorted().toArray()).isEqualTo(Drain.range(0, 15));
    }

    @Test
    void proportionsShareOutTheEpochSizeExactlyAndWithinOneSampleOfEachShare() {
        Random random = new Random(7);
        for (int trial = 0; trial < 500; trial++) {
            int k = 1 + random.nextInt(6);
            long[] sizes = new long[k];
            Share[] shares = new Share[k];
            double sum = 0;
            double[] w = new double[k];
            for (int i = 0; i < k; i++) {
                sizes[i] = 1 + random.nextInt(1000);
                w[i] = random.nextInt(4) == 0 ? 0 : random.nextDouble();
                sum += w[i];
                shares[i] = Share.proportion(w[i]);
            }
            if (sum == 0) {
                w[0] = 1;
                sum = 1;
                shares[0] = Share.proportion(1);
            }
            long epochSize = random.nextInt(5000);
            long[] counts = MixtureSampler.builder(sizes).shares(shares).epochSize(epochSize).build().counts();
            assertThat(Arrays.stream(counts).sum()).isEqualTo(epochSize);
            for (int i = 0; i < k; i++) {
                double exact = epochSize * w[i] / sum;
                assertThat((double) counts[i]).as("trial %d source %d", trial, i).isCloseTo(exact,
                        org.assertj.core.data.Offset.offset(1.0 + 1e-9));
                if (w[i] == 0) {
                    assertThat(counts[i]).isZero();
                }
            }
        }
    }

    @Test
    void repeatAndChooseAreAbsoluteAndMayBeMixed() {
        MixtureSampler s = MixtureSampler.builder(10, 4, 6)
                .shares(Share.repeat(2.5), Share.choose(3), Share.repeat(0)).build();
        assertThat(s.counts()).containsExactly(25, 3, 0);
        assertThat(s.epochSize()).isEqualTo(28);
        assertThat(MixtureSampler.builder(3).shares(Share.repeat(0.5)).build().counts())
                .as("1.5 rounds half up").containsExactly(2);
    }

    @Test
    void anEpochSizeWithoutSharesSamplesInProportionToTheSizes() {
        MixtureSampler s = MixtureSampler.builder(100, 300).epochSize(40).build();
        assertThat(s.counts()).containsExactly(10, 30);
    }

    @Test
    void aSourceGivesFullPassesThenASubsetWithoutReplacement() {
        long[] sizes = {7, 5, 9};
        Random random = new Random(3);
        for (int trial = 0; trial < 200; trial++) {
            long[] choose = {random.nextInt(30), random.nextInt(12), random.nextInt(9)};
            MixtureSampler s = MixtureSampler.builder(sizes)
                    .shares(Share.choose(choose[0]), Share.choose(choose[1]), Share.choose(choose[2]))
                    .seed(trial).build();
            long[] epoch = Drain.epoch(s, trial % 4);
            assertThat(perSource(s, epoch)).isEqualTo(choose);
            Map<Long, Integer> h = histogram(epoch);
            long offset = 0;
            for (int k = 0; k < sizes.length; k++) {
                long full = choose[k] / sizes[k];
                long extra = choose[k] % sizes[k];
                long withExtra = 0;
                for (long i = offset; i < offset + sizes[k]; i++) {
                    int times = h.getOrDefault(i, 0);
                    assertThat((long) times).as("index %d", i).isBetween(full, full + 1);
                    withExtra += times - full;
                }
                assertThat(withExtra).isEqualTo(extra);
                offset += sizes[k];
            }
        }
    }

    @Test
    void theOrderIsAPureFunctionOfSettingsAndEpoch() {
        MixtureSampler a = MixtureSampler.builder(100, 50).shares(Share.proportion(1), Share.proportion(3))
                .epochSize(120).seed(9).build();
        MixtureSampler b = MixtureSampler.builder(100, 50).shares(Share.proportion(1), Share.proportion(3))
                .epochSize(120).seed(9).build();
        assertThat(Drain.epoch(a, 4)).isEqualTo(Drain.epoch(b, 4));
        assertThat(Drain.epoch(a, 4)).isNotEqualTo(Drain.epoch(a, 5));
        assertThat(Drain.epoch(a, 4)).isNotEqualTo(Drain.epoch(
                MixtureSampler.builder(100, 50).shares(Share.proportion(1), Share.proportion(3))
                        .epochSize(120).seed(10).build(), 4));
    }

    @Test
    void resampleTakesAFreshSubsetEachEpochAndFixedKeepsOne() {
        MixtureSampler fresh = MixtureSampler.builder(1000).shares(Share.choose(100)).seed(2).build();
        MixtureSampler fixed = MixtureSampler.builder(1000).shares(Share.choose(100)).seed(2).resample(false).build();
        Set<Long> fresh0 = histogram(Drain.epoch(fresh, 0)).keySet();
        Set<Long> fresh1 = histogram(Drain.epoch(fresh, 1)).keySet();
        assertThat(fresh0).isNotEqualTo(fresh1);
        long[] fixed0 = Drain.epoch(fixed, 0);
        long[] fixed1 = Drain.epoch(fixed, 1);
        assertThat(histogram(fixed0).keySet()).isEqualTo(histogram(fixed1).keySet());
        assertThat(fixed0).as("the same subset, in a new order").isNotEqualTo(fixed1);
    }

    @Test
    void theShuffleSpreadsEverySourceEvenlyThroughTheEpoch() {
        // 20% of 50,000 from source 0: every window of 5,000 positions should hold about 1,000
        // (binomial sd about 28; 6 sd of slack keeps the test from failing by chance).
        MixtureSampler s = MixtureSampler.builder(100_000, 100_000)
                .shares(Share.proportion(0.2), Share.proportion(0.8)).epochSize(50_000).seed(11).build();
        long[] epoch = Drain.epoch(s, 3);
        for (int w = 0; w < 10; w++) {
            int fromFirst = 0;
            for (int i = w * 5000; i < (w + 1) * 5000; i++) {
                fromFirst += s.sourceOf(epoch[i]) == 0 ? 1 : 0;
            }
            assertThat(fromFirst).as("window %d", w).isBetween(1000 - 170, 1000 + 170);
        }
    }

    @Test
    void withoutShuffleTheSourcesComeInOrder() {
        MixtureSampler s = MixtureSampler.builder(4, 3).shares(Share.repeat(1), Share.repeat(2)).shuffle(false).build();
        long[] epoch = Drain.epoch(s, 0);
        assertThat(epoch).isEqualTo(new long[] {0, 1, 2, 3, 4, 5, 6, 4, 5, 6});
    }

    @Test
    void ranksSplitTheEpochLikeDistributedSampler() {
        Random random = new Random(5);
        for (int trial = 0; trial < 100; trial++) {
            long[] sizes = {1 + random.nextInt(50), 1 + random.nextInt(50)};
            int replicas = 1 + random.nextInt(5);
            boolean dropLast = random.nextBoolean();
            long epochSize = random.nextInt(120);
            long[] whole = Drain.epoch(MixtureSampler.builder(sizes)
                    .shares(Share.proportion(1), Share.proportion(2)).epochSize(epochSize).seed(trial).build(), 1);
            long perRank = dropLast ? epochSize / replicas : (epochSize + replicas - 1) / replicas;
            for (int r = 0; r < replicas; r++) {
                MixtureSampler rank = MixtureSampler.builder(sizes)
                        .shares(Share.proportion(1), Share.proportion(2)).epochSize(epochSize).seed(trial)
                        .numReplicas(replicas).rank(r).dropLast(dropLast).build();
                assertThat(rank.size()).isEqualTo(perRank);
                long[] mine = Drain.epoch(rank, 1);
                assertThat(mine).hasSize((int) perRank);
                for (int j = 0; j < mine.length; j++) {
                    assertThat(mine[j]).isEqualTo(whole[(int) ((r + (long) j * replicas) % epochSize)]);
                }
            }
        }
    }

    @Test
    void sourceOfFindsTheSourceAcrossEmptyOnes() {
        MixtureSampler s = MixtureSampler.builder(2, 0, 0, 3).build();
        assertThat(s.sourceOf(0)).isZero();
        assertThat(s.sourceOf(1)).isZero();
        assertThat(s.sourceOf(2)).isEqualTo(3);
        assertThat(s.sourceOf(4)).isEqualTo(3);
        assertThatThrownBy(() -> s.sourceOf(5)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("index 5");
    }

    @Test
    void anEmptyEpochYieldsNothing() {
        MixtureSampler s = MixtureSampler.builder(5, 5).shares(Share.choose(0), Share.choose(0)).numReplicas(2).build();
        assertThat(s.size()).isZero();
        assertThat(Drain.epoch(s, 0)).isEmpty();
    }

    @Test
    void sharesThatDoNotFitTheSourcesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> MixtureSampler.builder(5, 5).shares(Share.proportion(1)).build())
                .hasMessageContaining("2 sources but 1 shares");
        assertThatThrownBy(() -> MixtureSampler.builder(5, 5).shares(Share.proportion(1), Share.choose(3)).build())
                .hasMessageContaining("cannot be mixed");
        assertThatThrownBy(() -> MixtureSampler.builder(5, 5).shares(Share.repeat(1), Share.choose(3))
                .epochSize(10).build()).hasMessageContaining("epochSize 10");
        assertThatThrownBy(() -> MixtureSampler.builder(5, 0).shares(Share.choose(1), Share.choose(1)).build())
                .hasMessageContaining("source 1 is empty");
        assertThatThrownBy(() -> MixtureSampler.builder(5, 0).shares(Share.proportion(1), Share.proportion(1))
                .epochSize(10).build()).hasMessageContaining("source 1 is empty");
        assertThatThrownBy(() -> MixtureSampler.builder(5, 5).shares(Share.proportion(0), Share.proportion(0))
                .build()).hasMessageContaining("add up to 0");
        assertThatThrownBy(() -> MixtureSampler.builder().build()).hasMessageContaining("at least one source");
        assertThatThrownBy(() -> MixtureSampler.builder(-1).build()).hasMessageContaining("negative size");
        assertThatThrownBy(() -> MixtureSampler.builder(5).rank(1).build()).hasMessageContaining("invalid rank 1");
        assertThatThrownBy(() -> Share.proportion(Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> Share.repeat(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> Share.choose(-2)).hasMessageContaining("-2");
    }

    @Test
    void hugeSourcesBuildNothingOfTheirSize() {
        long big = 1L << 40;
        MixtureSampler s = MixtureSampler.builder(big, big)
                .shares(Share.proportion(1), Share.proportion(1)).epochSize(1000).seed(4).build();
        long[] epoch = Drain.epoch(s, 0);
        assertThat(new HashSet<>(Drain.boxed(epoch))).hasSize(1000);
        assertThat(perSource(s, epoch)).containsExactly(500, 500);
    }

    @Test
    void stratifiedEveryGlobalBatchHoldsEachSourceInTheSameCount() {
        Random random = new Random(13);
        for (int trial = 0; trial < 200; trial++) {
            int k = 1 + random.nextInt(4);
            long[] sizes = new long[k];
            Share[] shares = new Share[k];
            for (int i = 0; i < k; i++) {
                sizes[i] = 1 + random.nextInt(300);
                shares[i] = Share.proportion(0.05 + random.nextDouble());
            }
            int batch = 1 + random.nextInt(40);
            long epochSize = random.nextInt(2000);
            MixtureSampler s = MixtureSampler.builder(sizes).shares(shares).epochSize(epochSize)
                    .stratified(batch).seed(trial).shuffle(random.nextInt(5) > 0).build();
            long[] per = s.perGlobalBatch();
            assertThat(Arrays.stream(per).sum()).isEqualTo(epochSize == 0 ? 0 : batch);
            long[] epoch = Drain.epoch(s, trial % 3);
            assertThat((long) epoch.length).isEqualTo(s.epochSize()).isLessThanOrEqualTo(epochSize);
            assertThat(epoch.length % batch).isZero();
            for (int b = 0; b < epoch.length / batch; b++) {
                long[] inBatch = perSource(s, Arrays.copyOfRange(epoch, b * batch, (b + 1) * batch));
                assertThat(inBatch).as("trial %d batch %d", trial, b).isEqualTo(per);
            }
            assertThat(perSource(s, epoch)).isEqualTo(s.counts());
            // a source gives each of its samples once before it repeats any
            Map<Long, Integer> h = histogram(epoch);
            long offset = 0;
            for (int i = 0; i < k; i++) {
                long times = s.counts()[i];
                for (long x = offset; x < offset + sizes[i]; x++) {
                    assertThat((long) h.getOrDefault(x, 0)).isBetween(times / sizes[i], times / sizes[i] + 1);
                }
                offset += sizes[i];
            }
        }
    }

    @Test
    void stratifiedRanksSplitEachGlobalBatch() {
        long[] sizes = {500, 300, 200};
        Share[] shares = {Share.proportion(0.5), Share.proportion(0.3), Share.proportion(0.2)};
        long[] whole = Drain.epoch(MixtureSampler.builder(sizes).shares(shares).stratified(24).seed(8).build(), 2);
        int ranks = 4;
        long[][] mine = new long[ranks][];
        for (int r = 0; r < ranks; r++) {
            mine[r] = Drain.epoch(MixtureSampler.builder(sizes).shares(shares).stratified(24).seed(8)
                    .numReplicas(ranks).rank(r).build(), 2);
            assertThat(mine[r]).hasSize(whole.length / ranks);
        }
        for (int b = 0; b < whole.length / 24; b++) { // batch b of 6 per rank: together, global batch b
            List<Long> together = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                for (int i = b * 6; i < (b + 1) * 6; i++) {
                    together.add(mine[r][i]);
                }
            }
            assertThat(together).containsExactlyInAnyOrderElementsOf(Drain.boxed(Arrays.copyOfRange(whole, b * 24,
                    (b + 1) * 24)));
        }
        assertThatThrownBy(() -> MixtureSampler.builder(sizes).stratified(10).numReplicas(4).build())
                .hasMessageContaining("multiple of numReplicas");
        assertThatThrownBy(() -> MixtureSampler.builder(sizes).stratified(0)).hasMessageContaining("at least one");
    }
}
