package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.random.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShuffleBufferTest {

    static List<Integer> run(int n, int capacity, long stream) {
        List<Integer> out = new ArrayList<>();
        new ShuffleBuffer<>(IntStream.range(0, n).boxed().iterator(), capacity, stream).forEachRemaining(out::add);
        return out;
    }

    @Test
    void isAPermutationForAnySizeAndCapacity() {
        for (int n : new int[] {0, 1, 2, 7, 100, 1000}) {
            for (int capacity : new int[] {1, 2, 10, 1000, 5000}) {
                List<Integer> out = run(n, capacity, Seeds.mix(n, capacity));
                assertThat(out).as("n=%d capacity=%d", n, capacity)
                        .containsExactlyInAnyOrderElementsOf(IntStream.range(0, n).boxed().toList());
            }
        }
    }

    @Test
    void isDeterministicPerSeedEpochAndWorker() {
        long a = Seeds.mix(0, 1, 2);
        assertThat(run(500, 100, a)).isEqualTo(run(500, 100, a));
        assertThat(run(500, 100, a)).isNotEqualTo(run(500, 100, Seeds.mix(0, 1, 3)));
        assertThat(run(500, 100, a)).isNotEqualTo(run(500, 100, Seeds.mix(0, 2, 2)));
    }

    @Test
    void emitsNothingUntilTheBufferIsFullThenFollowsW5sRule() {
        // capacity 3 over 0..4: fill [0,1,2]; item 3 replaces slot d0 (emitting it); item 4 replaces slot d1
        long stream = Seeds.mix(9, 9);
        int d0 = (int) Seeds.below(Seeds.splitMix(stream, 0), 3);
        List<Integer> out = run(5, 3, stream);
        assertThat(out.getFirst()).isEqualTo(d0);
        // with a buffer larger than the stream it is a plain shuffle of everything, all at the end
        assertThat(run(5, 10, stream)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        // a capacity-1 buffer keeps the order
        assertThat(run(5, 1, stream)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void mixesPositionsWell() {
        // the first emitted item is uniform over the items that filled the buffer
        int[] counts = new int[10];
        for (int s = 0; s < 10_000; s++) {
            counts[run(20, 10, Seeds.mix(s, 0)).getFirst()]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(850, 1150);
        }
    }
}
