package dev.stoker.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FirstFitDecreasingTest {

    @Test
    void equalsTheTextbookAlgorithmOnRandomItems() {
        SplittableRandom random = new SplittableRandom(31);
        for (int trial = 0; trial < 200; trial++) {
            int capacity = random.nextInt(1, 100);
            int[] sizes = random.ints(random.nextInt(0, 300), 0, capacity + 1).toArray();
            int[][] bins = FirstFitDecreasing.pack(sizes, capacity);
            assertThat(bins).isDeepEqualTo(naive(sizes, capacity));
            int[] all = Arrays.stream(bins).flatMapToInt(Arrays::stream).sorted().toArray();
            assertThat(all).isEqualTo(IntStream.range(0, sizes.length).toArray());
            for (int[] bin : bins) {
                assertThat(Arrays.stream(bin).map(i -> sizes[i]).sum()).isLessThanOrEqualTo(capacity);
            }
        }
    }

    /** Each item, longest first, into the first bin with room, scanning the bins one by one. */
    private static int[][] naive(int[] sizes, int capacity) {
        Integer[] order = IntStream.range(0, sizes.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingInt((Integer i) -> -sizes[i]).thenComparingInt(i -> i));
        List<List<Integer>> bins = new ArrayList<>();
        List<Integer> free = new ArrayList<>();
        for (int i : order) {
            int b = 0;
            while (b < bins.size() && free.get(b) < sizes[i]) {
                b++;
            }
            if (b == bins.size()) {
                bins.add(new ArrayList<>());
                free.add(capacity);
            }
            bins.get(b).add(i);
            free.set(b, free.get(b) - sizes[i]);
        }
        return bins.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
    }

    @Test
    void theJavadocExample() {
        assertThat(FirstFitDecreasing.pack(new int[] {5, 3, 4, 2}, 7)).isDeepEqualTo(new int[][] {{0, 3}, {2, 1}});
        assertThat(FirstFitDecreasing.pack(new int[0], 7)).isEmpty();
    }

    @Test
    void rejectsItemsLargerThanABin() {
        assertThatThrownBy(() -> FirstFitDecreasing.pack(new int[] {3, 8}, 7)).hasMessageContaining("item 1");
        assertThatThrownBy(() -> FirstFitDecreasing.pack(new int[] {1}, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
