package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FixedSizeBatchSamplerTest {

    private static List<long[]> batches(BatchSampler b, long epoch) {
        List<long[]> out = new ArrayList<>();
        b.iterator(epoch).forEachRemaining(out::add);
        return out;
    }

    @Test
    void keepsAShortLastBatchLikePyTorch() {
        BatchSampler b = BatchSampler.of(new SequentialSampler(10), 3, false);
        assertThat(b.size()).isEqualTo(4);
        assertThat(batches(b, 0)).containsExactly(
                new long[] {0, 1, 2}, new long[] {3, 4, 5}, new long[] {6, 7, 8}, new long[] {9});
    }

    @Test
    void dropsTheShortLastBatchWhenAsked() {
        BatchSampler b = BatchSampler.of(new SequentialSampler(10), 3, true);
        assertThat(b.size()).isEqualTo(3);
        assertThat(batches(b, 0)).containsExactly(new long[] {0, 1, 2}, new long[] {3, 4, 5}, new long[] {6, 7, 8});
    }

    @Test
    void evenDivisionIsTheSameEitherWay() {
        for (boolean dropLast : new boolean[] {false, true}) {
            BatchSampler b = BatchSampler.of(new SequentialSampler(9), 3, dropLast);
            assertThat(b.size()).isEqualTo(3);
            assertThat(batches(b, 0)).hasSize(3).allMatch(batch -> batch.length == 3);
        }
    }

    @Test
    void sizeMatchesTheBatchesYieldedAndKeepsTheOrder() {
        SplittableRandom random = new SplittableRandom(6);
        for (int trial = 0; trial < 200; trial++) {
            long n = random.nextLong(0, 500);
            int batchSize = random.nextInt(1, 40);
            boolean dropLast = random.nextBoolean();
            Sampler s = RandomSampler.of(n, trial);
            FixedSizeBatchSampler b = BatchSampler.of(s, batchSize, dropLast);
            List<long[]> out = batches(b, 7);
            long expectedCount = dropLast ? n / batchSize : (n + batchSize - 1) / batchSize;
            assertThat(b.size()).isEqualTo(expectedCount);
            assertThat(out).hasSize((int) expectedCount);
            long[] order = Drain.epoch(s, 7);
            int k = 0;
            for (int i = 0; i < out.size(); i++) {
                long[] batch = out.get(i);
                if (i < out.size() - 1 || dropLast) {
                    assertThat(batch).hasSize(batchSize);
                }
                for (long index : batch) {
                    assertThat(index).isEqualTo(order[k++]);
                }
            }
            assertThat(k).isEqualTo(dropLast ? (int) (n / batchSize * batchSize) : (int) n);
        }
    }

    @Test
    void sizeUsesTheSamplerSizeBeyondIntRange() {
        BatchSampler b = BatchSampler.of(new SequentialSampler(5_000_000_001L), 1000, false);
        assertThat(b.size()).isEqualTo(5_000_001L);
        assertThat(BatchSampler.of(new SequentialSampler(5_000_000_001L), 1000, true).size()).isEqualTo(5_000_000L);
        assertThat(b.iterator(0).next()).hasSize(1000).startsWith(0, 1, 2);
    }

    @Test
    void batchesAreFreshArraysAndExhaustionThrows() {
        Iterator<long[]> it = BatchSampler.of(new SequentialSampler(4), 2, false).iterator(0);
        long[] first = it.next();
        first[0] = 99;
        long[] second = it.next();
        assertThat(second).isNotSameAs(first).containsExactly(2, 3);
        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void emptySamplerYieldsNoBatches() {
        BatchSampler b = BatchSampler.of(new SequentialSampler(0), 4, false);
        assertThat(b.size()).isZero();
        assertThat(batches(b, 0)).isEmpty();
    }

    @Test
    void rejectsInvalidArguments() {
        assertThatThrownBy(() -> BatchSampler.of(new SequentialSampler(3), 0, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batchSize must be >= 1, got 0");
        assertThatThrownBy(() -> BatchSampler.of(null, 2, false)).isInstanceOf(NullPointerException.class);
    }
}
