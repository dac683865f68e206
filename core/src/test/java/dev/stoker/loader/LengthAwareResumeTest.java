package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.packing.PackedCollate;
import dev.stoker.packing.PackedDataset;
import dev.stoker.packing.PackedRow;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.DistributedSampler;
import dev.stoker.sampler.ElasticBatchSampler;
import dev.stoker.sampler.LengthGroupedBatchSampler;
import dev.stoker.sampler.TokenBudgetBatchSampler;
import dev.stoker.sampler.TokenCost;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Resume property tests for the length-aware paths of issue 18, over seeded random settings: a
 * loader stopped at a random batch and restored, with another number of workers, delivers what an
 * uninterrupted run delivers, for length-grouped batches, token-budget batches and packed rows, on
 * every rank of worlds of 1 to 3; packed rows under {@link ElasticBatchSampler} also go on on
 * another world size, every remaining row once.
 */
class LengthAwareResumeTest {
    private static final int EPOCHS = 2;

    /** Sample i is its own index; a batch is described by its epoch and indices. */
    private record Indices(long size) implements Dataset<Long> {
        public Long get(long i) {
            return i;
        }
    }

    private static final Function<Batch, String> INDICES = b -> b.epoch() + ":" + Arrays.toString(b.indices());

    /** A packed batch by its rows and their tokens, so a resumed row must hold the same examples. */
    private static final Function<Batch, String> PACKED = b -> b.epoch() + ":" + Arrays.toString(b.indices()) + ":"
            + Arrays.hashCode(b.tensor("input_ids").toLongArray()) + ":" + Arrays.hashCode(b.tensor("labels").toLongArray());

    private static int[] lengths(SplittableRandom r, int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {   // long-tailed: log-normal, median 40
            out[i] = (int) Math.max(1, Math.min(400, Math.round(40 * Math.exp(r.nextGaussian()))));
        }
        return out;
    }

    private interface Loaders {
        DataLoader<?> make(int workers);
    }

    private static void resumesAsUninterrupted(String what, Loaders loaders, Function<Batch, String> describe,
            SplittableRandom r) {
        List<String> expected;
        try (DataLoader<?> whole = loaders.make(r.nextInt(3))) {
            expected = ResumeRuns.uninterrupted(whole, EPOCHS, describe);
        }
        int stop = r.nextInt(expected.size() + 1);
        int before = r.nextInt(4);
        int after = r.nextInt(4);
        List<String> seen = new ArrayList<>();
        LoaderState state;
        try (DataLoader<?> first = loaders.make(before)) {
            state = ResumeRuns.stopAfter(first, EPOCHS, stop, describe, seen);
        }
        try (DataLoader<?> second = loaders.make(after)) {
            ResumeRuns.resume(second, state, EPOCHS, describe, seen, () -> {});
        }
        assertThat(seen).as("%s, stopped after %d of %d batches, %d workers then %d", what, stop, expected.size(),
                before, after).isEqualTo(expected);
    }

    @Test
    void lengthGroupedBatchesResumeOnAnyWorkersAndEveryRank() {
        SplittableRandom r = new SplittableRandom(181);
        for (int trial = 0; trial < 6; trial++) {
            int[] lengths = lengths(r, 50 + r.nextInt(200));
            int world = 1 + r.nextInt(3);
            int rank = r.nextInt(world);
            int batch = 1 + r.nextInt(8);
            long seed = r.nextLong();
            boolean dropLast = r.nextBoolean();
            BatchSampler sampler = LengthGroupedBatchSampler.builder(lengths, batch).seed(seed).rank(rank)
                    .worldSize(world).dropLast(dropLast).build();
            resumesAsUninterrupted("length-grouped, rank " + rank + " of " + world + ", batch " + batch,
                    workers -> DataLoader.builder(new Indices(lengths.length)).batchSampler(sampler).seed(seed)
                            .numWorkers(workers).build(), INDICES, r);
        }
    }

    @Test
    void tokenBudgetBatchesResumeOnAnyWorkersAndEveryRank() {
        SplittableRandom r = new SplittableRandom(182);
        for (int trial = 0; trial < 6; trial++) {
            int[] lengths = lengths(r, 50 + r.nextInt(200));
            int world = 1 + r.nextInt(3);
            int rank = r.nextInt(world);
            long budget = 100 + r.nextInt(800);
            long seed = r.nextLong();
            TokenCost cost = r.nextBoolean() ? TokenCost.PADDED : TokenCost.PACKED;
            BatchSampler sampler = TokenBudgetBatchSampler.builder(lengths, budget).cost(cost).seed(seed).rank(rank)
                    .worldSize(world).dropLast(r.nextBoolean()).build();
            resumesAsUninterrupted("token budget " + budget + " " + cost + ", rank " + rank + " of " + world,
                    workers -> DataLoader.builder(new Indices(lengths.length)).batchSampler(sampler).seed(seed)
                            .numWorkers(workers).build(), INDICES, r);
        }
    }

    /** Example i's tokens are 1000 * i + t, so a row's tokens name its examples. */
    private record Examples(int[] lengths) implements Dataset<int[]> {
        public long size() {
            return lengths.length;
        }

        public int[] get(long i) {
            int[] out = new int[lengths[(int) i]];
            Arrays.setAll(out, t -> (int) (1000 * i + t));
            return out;
        }
    }

    private static PackedDataset packed(SplittableRandom r) {
        int[] lengths = lengths(r, 100 + r.nextInt(300));
        return PackedDataset.builder(new Examples(lengths), lengths, 256).windowSize(10 + r.nextInt(100))
                .seed(r.nextLong()).build();
    }

    @Test
    void packedRowsResumeOnAnyWorkersAndEveryRank() {
        SplittableRandom r = new SplittableRandom(183);
        for (int trial = 0; trial < 6; trial++) {
            PackedDataset rows = packed(r);
            int world = 1 + r.nextInt(3);
            int rank = r.nextInt(world);
            int batch = 1 + r.nextInt(6);
            long seed = r.nextLong();
            boolean fill = r.nextBoolean();
            resumesAsUninterrupted((fill ? "packed, fill path" : "packed, PackedCollate") + ", rank " + rank + " of "
                    + world, workers -> (fill ? DataLoader.builder(rows.fillable())
                            : DataLoader.builder(rows).collate(new PackedCollate()))
                    .sampler(DistributedSampler.builder(rows.size()).shuffle(true).seed(seed).rank(rank)
                            .numReplicas(world).build())
                    .batchSize(batch).seed(seed).numWorkers(workers).build(), PACKED, r);
        }
    }

    @Test
    void packedRowsUnderTheElasticSamplerGoOnOnAnotherWorldSize() {
        SplittableRandom r = new SplittableRandom(184);
        for (int trial = 0; trial < 5; trial++) {
            PackedDataset rows = packed(r);
            int from = 1 + r.nextInt(3);
            int to = 1 + r.nextInt(4);
            int global = 4 + r.nextInt(8);
            long seed = r.nextLong();
            long batches = new ElasticBatchSampler(rows.size(), global, true, seed, false, 0, from).size();
            int stop = r.nextInt((int) batches);   // mid-epoch: a state at the epoch's end stands at the next one
            // every rank of the old world delivers `stop` batches; the state is the same on each
            Set<Long> delivered = new HashSet<>();
            LoaderState state = null;
            for (int rank = 0; rank < from; rank++) {
                List<String> seen = new ArrayList<>();
                try (DataLoader<PackedRow> loader = DataLoader.builder(rows.fillable())
                        .batchSampler(new ElasticBatchSampler(rows.size(), global, true, seed, false, rank, from))
                        .seed(seed).numWorkers(r.nextInt(3)).build()) {
                    state = ResumeRuns.stopAfter(loader, 1, stop, b -> {
                        for (long i : b.indices()) {
                            assertThat(delivered.add(i)).isTrue();
                        }
                        return "";
                    }, seen);
                }
            }
            Set<Long> rest = new HashSet<>();
            for (int rank = 0; rank < to; rank++) {
                try (DataLoader<PackedRow> loader = DataLoader.builder(rows.fillable())
                        .batchSampler(new ElasticBatchSampler(rows.size(), global, true, seed, false, rank, to))
                        .seed(seed).numWorkers(r.nextInt(3)).build()) {
                    loader.restore(state);
                    for (Batch b : loader) {
                        try (b) {
                            Tensor ids = b.tensor("input_ids");
                            long[] indices = b.indices();
                            for (int j = 0; j < indices.length; j++) {
                                assertThat(rest.add(indices[j])).as("row %d once", indices[j]).isTrue();
                                assertThat(delivered).doesNotContain(indices[j]);
                                // the row's tokens are the pure function of (seed, window) a fresh run makes
                                assertThat(ids.select(j).toLongArray()).containsExactly(
                                        Arrays.stream(rows.get(indices[j]).inputIds()).asLongStream().toArray());
                            }
                        }
                    }
                }
            }
            assertThat(delivered.size() + rest.size()).as("%d ranks then %d, stopped at %d of %d", from, to, stop,
                    batches).isEqualTo(rows.size());
        }
    }

    @Test
    void aLengthAwareStateIsRefusedOnAWorldWithAnotherBatchCount() {
        int[] lengths = lengths(new SplittableRandom(5), 120);
        BatchSampler two = LengthGroupedBatchSampler.builder(lengths, 4).seed(1).rank(0).worldSize(2).build();
        BatchSampler three = LengthGroupedBatchSampler.builder(lengths, 4).seed(1).rank(0).worldSize(3).build();
        LoaderState state;
        try (DataLoader<Long> a = DataLoader.builder(new Indices(lengths.length)).batchSampler(two).seed(1).build()) {
            state = ResumeRuns.stopAfter(a, 1, 3, INDICES, new ArrayList<>());
        }
        try (DataLoader<Long> b = DataLoader.builder(new Indices(lengths.length)).batchSampler(three).seed(1).build()) {
            assertThatThrownBy(() -> b.restore(state)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("another loader");
        }
    }
}
