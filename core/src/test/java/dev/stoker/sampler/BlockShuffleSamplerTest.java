package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.PrimitiveIterator;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockShuffleSamplerTest {

    private static long[] drain(Sampler s, long epoch) {
        long[] out = new long[(int) s.size()];
        PrimitiveIterator.OfLong it = s.iterator(epoch);
        for (int i = 0; i < out.length; i++) {
            out[i] = it.nextLong();
        }
        assertThat(it.hasNext()).isFalse();
        return out;
    }

    @Test
    void everyEpochIsAPermutationThatTouchesFewBlocksAtATime() {
        Random random = new Random(3);
        for (int trial = 0; trial < 300; trial++) {
            long size = random.nextInt(2000);
            long block = 1 + random.nextInt(64);
            int open = 1 + random.nextInt(6);
            BlockShuffleSampler s = new BlockShuffleSampler(size, block, open, random.nextLong());
            long[] order = drain(s, random.nextInt(4));
            String what = "trial " + trial + ": " + s;

            assertThat(order).as(what).hasSize((int) size).doesNotHaveDuplicates();
            assertThat(Arrays.stream(order).allMatch(i -> i >= 0 && i < size)).as(what).isTrue();
            // any stretch as long as one window touches at most two windows (three around the window holding the short last block)
            int stretch = (int) Math.min(size, open * block);
            for (int from = 0; from + stretch <= order.length; from += Math.max(1, stretch / 3)) {
                Set<Long> touched = new HashSet<>();
                for (int i = from; i < from + stretch; i++) {
                    touched.add(s.blockOf(order[i]));
                }
                assertThat(touched.size()).as(what + " from " + from).isLessThanOrEqualTo(3 * open);
            }
        }
    }

    @Test
    void theOrderIsAPureFunctionOfSeedAndEpoch() {
        BlockShuffleSampler a = new BlockShuffleSampler(10_000, 100, 4, 42);
        BlockShuffleSampler b = new BlockShuffleSampler(10_000, 100, 4, 42);
        BlockShuffleSampler c = new BlockShuffleSampler(10_000, 100, 4, 43);

        assertThat(drain(a, 5)).isEqualTo(drain(b, 5)).isNotEqualTo(drain(a, 6)).isNotEqualTo(drain(c, 5));
    }

    @Test
    void samplesOfAWindowAreMixedNotLeftInBlockOrder() {
        long[] order = drain(new BlockShuffleSampler(1000, 100, 4, 1), 0);
        int blockChanges = 0;
        for (int i = 1; i < 400; i++) {
            if (order[i] / 100 != order[i - 1] / 100) {
                blockChanges++;
            }
        }
        assertThat(blockChanges).isGreaterThan(100); // 4 blocks shuffled together, not read one after another
    }
}
