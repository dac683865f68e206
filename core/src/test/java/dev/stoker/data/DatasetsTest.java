package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class DatasetsTest {

    private static List<Long> all(Dataset<Long> ds) {
        List<Long> out = new ArrayList<>();
        for (long i = 0; i < ds.size(); i++) {
            out.add(ds.get(i));
        }
        return out;
    }

    // ---- subset

    @Test
    void subsetMapsIndicesInOrder() {
        CountingDataset parent = new CountingDataset("parent", 10, 100);
        long[] indices = {7, 2, 2, 9};
        SubsetDataset<Long> sub = Datasets.subset(parent, indices);
        indices[0] = 0; // the subset keeps its own copy
        assertThat(sub.size()).isEqualTo(4);
        assertThat(all(sub)).containsExactly(107L, 102L, 102L, 109L);
        assertThat(sub.indices()).containsExactly(7, 2, 2, 9);
        assertThat(sub.getBatch(new long[] {3, 0})).containsExactly(109L, 107L);
        assertThat(sub.dataset()).isSameAs(parent);
    }

    @Test
    void subsetKeepsTheBatchedFetch() {
        CountingDataset parent = CountingDataset.batched("parent", 10, 0);
        SubsetDataset<Long> sub = Datasets.subset(parent, new long[] {5, 6, 7});
        assertThat(sub.getBatch(new long[] {2, 0, 1})).containsExactly(7L, 5L, 6L);
        assertThat(parent.batches.get()).isEqualTo(1);
        assertThat(parent.batchArguments.getFirst()).containsExactly(7, 5, 6);
        assertThat(parent.gets.get()).isZero();
    }

    @Test
    void subsetErrorsNameTheDatasetIndexAndSize() {
        CountingDataset parent = new CountingDataset("parent", 10, 0);
        assertThatThrownBy(() -> Datasets.subset(parent, new long[] {1, 10}))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("parent")
                .hasMessageContaining("index 10")
                .hasMessageContaining("position 1")
                .hasMessageContaining("[0, 10)");
        SubsetDataset<Long> sub = Datasets.subset(parent, new long[] {1, 2});
        assertThatThrownBy(() -> sub.get(2))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("subset of parent: index 2 is outside [0, 2)");
        assertThatThrownBy(() -> sub.getBatch(new long[] {0, -1}))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("index -1");
    }

    // ---- concat

    @Test
    void concatFindsEachIndexInItsPart() {
        CountingDataset a = new CountingDataset("a", 3, 100);
        CountingDataset empty = new CountingDataset("empty", 0, 0);
        CountingDataset b = new CountingDataset("b", 2, 200);
        CountingDataset c = new CountingDataset("c", 4, 300);
        ConcatDataset<Long> cat = Datasets.concat(a, empty, b, empty, c);
        assertThat(cat.size()).isEqualTo(9);
        assertThat(all(cat)).containsExactly(100L, 101L, 102L, 200L, 201L, 300L, 301L, 302L, 303L);
        assertThat(cat.offsets()).containsExactly(0, 3, 3, 5, 5);
        assertThat(cat.name()).isEqualTo("concat of (a, empty, b, empty, c)");
    }

    @Test
    void concatMatchesAFlatListForRandomParts() {
        SplittableRandom rnd = new SplittableRandom(17);
        for (int trial = 0; trial < 200; trial++) {
            int parts = rnd.nextInt(1, 6);
            List<Dataset<Long>> list = new ArrayList<>();
            List<Long> flat = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                int size = rnd.nextInt(0, 6);
                list.add(rnd.nextBoolean() ? new CountingDataset("p" + p, size, p * 1000L)
                        : CountingDataset.batched("p" + p, size, p * 1000L));
                for (int i = 0; i < size; i++) flat.add(p * 1000L + i);
            }
            ConcatDataset<Long> cat = Datasets.concat(list);
            assertThat(all(cat)).isEqualTo(flat);
            if (flat.isEmpty()) continue;
            long[] batch = rnd.longs(rnd.nextInt(1, 12), 0, flat.size()).toArray();
            List<Long> expected = Arrays.stream(batch).mapToObj(i -> flat.get((int) i)).toList();
            assertThat(cat.getBatch(batch)).isEqualTo(expected);
        }
    }

    @Test
    void concatCallsEachPartsGetBatchOncePerBatch() {
        CountingDataset a = CountingDataset.batched("a", 5, 0);
        CountingDataset b = CountingDataset.batched("b", 5, 50);
        ConcatDataset<Long> cat = Datasets.concat(a, b);
        assertThat(cat.getBatch(new long[] {6, 1, 9, 0, 5})).containsExactly(51L, 1L, 54L, 0L, 50L);
        assertThat(a.batches.get()).isEqualTo(1);
        assertThat(b.batches.get()).isEqualTo(1);
        assertThat(a.batchArguments.getFirst()).containsExactly(1, 0);
        assertThat(b.batchArguments.getFirst()).containsExactly(1, 4, 0);
    }

    @Test
    void concatHandlesLongSizes() {
        Dataset<Long> huge = new Dataset<>() {
            public long size() {
                return 3_000_000_000L;
            }

            public Long get(long index) {
                return index;
            }
        };
        ConcatDataset<Long> cat = Datasets.concat(huge, new CountingDataset("tail", 5, -1), huge);
        assertThat(cat.size()).isEqualTo(6_000_000_005L);
        assertThat(cat.get(2_999_999_999L)).isEqualTo(2_999_999_999L);
        assertThat(cat.get(3_000_000_004L)).isEqualTo(3L); // -1 + 4
        assertThat(cat.get(3_000_000_005L)).isEqualTo(0L);
        assertThat(cat.get(6_000_000_004L)).isEqualTo(2_999_999_999L);
    }

    @Test
    void concatErrors() {
        ConcatDataset<Long> cat = Datasets.concat(new CountingDataset("a", 2, 0), new CountingDataset("b", 1, 0));
        assertThatThrownBy(() -> cat.get(3))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("concat of (a, b): index 3 is outside [0, 3)");
        assertThatThrownBy(() -> cat.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Datasets.concat(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- map

    @Test
    void mapTransformsEachSampleAndKeepsTheBatchedFetch() {
        CountingDataset parent = CountingDataset.batched("nums", 6, 0);
        MappedDataset<Long, String> mapped = Datasets.map(parent, i -> "#" + i);
        assertThat(mapped.size()).isEqualTo(6);
        assertThat(mapped.get(4)).isEqualTo("#4");
        assertThat(mapped.getBatch(new long[] {5, 1})).containsExactly("#5", "#1");
        assertThat(parent.batches.get()).isEqualTo(1);
        assertThat(mapped.name()).isEqualTo("mapped nums");
        assertThatThrownBy(() -> mapped.get(6))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("mapped nums: index 6 is outside [0, 6)");
    }

    // ---- randomSplit

    @Test
    void fractionsFollowPyTorchsRoundingAndRemainder() {
        CountingDataset ds = new CountingDataset(10);
        assertThat(sizes(Datasets.randomSplit(ds, new double[] {0.5, 0.3, 0.2}, 1))).containsExactly(5, 3, 2);
        // floor gives 3, 3, 3; the remainder 1 goes to the first split
        assertThat(sizes(Datasets.randomSplit(ds, new double[] {0.33, 0.33, 0.34}, 1))).containsExactly(4, 3, 3);
        // floor gives 2, 2, 2, 2: the remainder 3 goes round-robin from the first
        CountingDataset eleven = new CountingDataset(11);
        assertThat(sizes(Datasets.randomSplit(eleven, new double[] {0.25, 0.25, 0.25, 0.25}, 1)))
                .containsExactly(3, 3, 3, 2);
        // floor gives 3, 3, 3, 1
        assertThat(sizes(Datasets.randomSplit(eleven, new double[] {0.3, 0.3, 0.3, 0.1}, 1)))
                .containsExactly(4, 3, 3, 1);
        assertThat(sizes(Datasets.randomSplit(ds, new double[] {7, 3}, 1))).containsExactly(7, 3);
        assertThat(sizes(Datasets.randomSplit(ds, new long[] {0, 10}, 1))).containsExactly(0, 10);
        assertThat(sizes(Datasets.randomSplit(ds, new double[] {1.0}, 1))).containsExactly(10);
    }

    @Test
    void splitsAreDisjointCompleteAndReproducible() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int trial = 0; trial < 200; trial++) {
            int n = rnd.nextInt(0, 300);
            int parts = rnd.nextInt(1, 5);
            double[] fractions = new double[parts];
            double total = 0;
            for (int p = 0; p < parts; p++) total += fractions[p] = rnd.nextDouble(0.01, 1);
            for (int p = 0; p < parts; p++) fractions[p] /= total;
            fractions[parts - 1] = 1 - Arrays.stream(fractions, 0, parts - 1).sum();
            long seed = rnd.nextLong();
            CountingDataset ds = new CountingDataset(n);
            List<SubsetDataset<Long>> split = Datasets.randomSplit(ds, fractions, seed);
            List<Long> seen = new ArrayList<>();
            split.forEach(s -> seen.addAll(all(s)));
            assertThat(seen).containsExactlyInAnyOrderElementsOf(LongStream.range(0, n).boxed().toList());
            List<SubsetDataset<Long>> again = Datasets.randomSplit(ds, fractions, seed);
            for (int p = 0; p < parts; p++) {
                assertThat(again.get(p).indices()).containsExactly(split.get(p).indices());
            }
        }
    }

    @Test
    void anotherSeedGivesAnotherSplit() {
        CountingDataset ds = new CountingDataset(1000);
        long[] a = Datasets.randomSplit(ds, new double[] {0.5, 0.5}, 1).getFirst().indices();
        long[] b = Datasets.randomSplit(ds, new double[] {0.5, 0.5}, 2).getFirst().indices();
        assertThat(a).isNotEqualTo(b);
        // and the order is shuffled, not the identity
        assertThat(a).isNotEqualTo(LongStream.range(0, 500).toArray());
    }

    @Test
    void splitsOfAHugeDatasetHoldNoIndexArrays() {
        Dataset<Long> huge = new Dataset<>() {
            public long size() {
                return 5_000_000_000L;
            }

            public Long get(long index) {
                return index;
            }
        };
        List<SubsetDataset<Long>> split = Datasets.randomSplit(huge, new double[] {0.9, 0.1}, 3);
        assertThat(split.get(0).size()).isEqualTo(4_500_000_000L);
        assertThat(split.get(1).size()).isEqualTo(500_000_000L);
        long x = split.get(1).get(499_999_999L);
        assertThat(x).isBetween(0L, 4_999_999_999L);
        assertThatThrownBy(() -> split.get(0).indices()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void splitErrors() {
        CountingDataset ds = new CountingDataset("ten", 10, 0);
        assertThatThrownBy(() -> Datasets.randomSplit(ds, new double[] {5, 4}, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sum to 9")
                .hasMessageContaining("ten (10)");
        assertThatThrownBy(() -> Datasets.randomSplit(ds, new double[] {0.5, 0.7}, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neither fractions");
        assertThatThrownBy(() -> Datasets.randomSplit(ds, new double[] {1.5, -0.5}, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fraction 0 (1.5) is not between 0 and 1");
        assertThatThrownBy(() -> Datasets.randomSplit(ds, new long[] {11, -1}, 1))
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> Datasets.randomSplit(ds, new double[0], 1))
                .hasMessageContaining("at least one");
    }

    private static long[] sizes(List<SubsetDataset<Long>> split) {
        return split.stream().mapToLong(SubsetDataset::size).toArray();
    }
}
