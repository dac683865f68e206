package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** RowGroupShuffleSampler: a permutation each epoch, a pure function of (seed, epoch), and local. */
class ParquetShuffleSamplerTest {

    @Test
    void everyEpochIsAPermutationThatTouchesFewBlocksAtATime() {
        Random random = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            int blocks = 1 + random.nextInt(20);
            long[] starts = new long[blocks + 1];
            for (int b = 0; b < blocks; b++) {
                starts[b + 1] = starts[b] + random.nextInt(40);   // empty blocks too
            }
            int open = 1 + random.nextInt(4);
            RowGroupShuffleSampler s = new RowGroupShuffleSampler(starts, open, trial);
            for (long epoch = 0; epoch < 3; epoch++) {
                List<Long> order = drain(s.iterator(epoch));
                assertThat(order).hasSize((int) s.size());
                assertThat(new HashSet<>(order)).hasSize((int) s.size());
                assertThat(drain(s.iterator(epoch))).isEqualTo(order);
                // any stretch as long as the smallest window of non-empty blocks touches at most 2 x open blocks
                for (int from = 0; from + 1 < order.size(); from += 5) {
                    Set<Integer> touched = new HashSet<>();
                    for (int k = from; k < Math.min(order.size(), from + 2); k++) {
                        touched.add(s.blockOf(order.get(k)));
                    }
                    assertThat(touched.size()).isLessThanOrEqualTo(2 * open);
                }
                for (long i = 0; i < s.size(); i++) {
                    assertThat(starts[s.blockOf(i)]).isLessThanOrEqualTo(i);
                    assertThat(starts[s.blockOf(i) + 1]).isGreaterThan(i);
                }
            }
        }
    }

    @Test
    void aShuffledEpochDecodesEachRowGroupOncePerWindow() {
        long[] starts = {0, 128, 256, 384, 512, 640, 768, 896, 1000};
        RowGroupShuffleSampler s = new RowGroupShuffleSampler(starts, 2, 42);
        List<Long> order = drain(s.iterator(0));
        int switches = 0;
        Set<Integer> window = new HashSet<>();
        for (int k = 0; k < order.size(); k++) {
            window.add(s.blockOf(order.get(k)));
            if (window.size() > 2) {
                switches++;
                window.clear();
                window.add(s.blockOf(order.get(k)));
            }
        }
        // with 2 row groups cached per worker, 8 groups are decoded in 4 windows: 3 window changes
        assertThat(switches).isEqualTo(3);
        assertThat(order.subList(0, 10)).isNotEqualTo(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L));
    }

    private static List<Long> drain(PrimitiveIterator.OfLong it) {
        List<Long> out = new ArrayList<>();
        while (it.hasNext()) {
            out.add(it.nextLong());
        }
        return out;
    }
}
