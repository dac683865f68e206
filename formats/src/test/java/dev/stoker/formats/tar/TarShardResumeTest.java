package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.sampler.BatchSampler;
import dev.stoker.sampler.BlockShuffleSampler;
import dev.stoker.sampler.ElasticBatchSampler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tar shards resume mid-epoch: the batches before a stop and after the restore are those of an
 * uninterrupted run, with shard shuffling, a shuffle buffer and fixed-length epochs; shards that the
 * resume passes over whole are not opened (their sidecars count their samples).
 */
class TarShardResumeTest {
    private static final int EPOCHS = 2;

    @TempDir
    Path dir;

    @BeforeEach
    void shards() {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("R-%02d.tar").toString()).maxSamples(13).build()) {
            for (int i = 0; i < 100; i++) {
                w.write(String.format("%04d", i), Map.of("cls", Integer.toString(i).getBytes()));
            }
            w.commit();
        }
    }

    private DataLoader<TarSample> loader(TarShardDataset ds, int workers) {
        return DataLoader.builder(ds).batchSize(8).numWorkers(workers).seed(11)
                .collate((samples, memory) -> samples.stream().map(s -> s.string("cls")).toList()).build();
    }

    private static String describe(Batch b) {
        return b.epoch() + "/" + b.index() + "=" + b.data();
    }

    private List<String> uninterrupted(TarShardDataset ds, int workers) {
        try (DataLoader<TarSample> loader = loader(ds, workers)) {
            return ResumeRuns.uninterrupted(loader, EPOCHS, TarShardResumeTest::describe);
        }
    }

    @Test
    void aResumedEpochGoesOnAsIfUninterrupted() {
        Random random = new Random(5);
        for (int trial = 0; trial < 24; trial++) {
            int workers = random.nextInt(3);
            TarShardDataset ds = TarShardDataset.builder(dir.resolve("R-{00..07}.tar").toString())
                    .shuffleShards(random.nextBoolean()).shuffleBuffer(random.nextBoolean() ? 20 : 0)
                    .samplesPerWorker(random.nextBoolean() ? 70 / Math.max(1, workers) : 0).build();
            List<String> expected = uninterrupted(ds, workers);
            int stop = random.nextInt(expected.size() + 1);
            String what = "trial " + trial + ", " + workers + " workers, stop after " + stop;
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<TarSample> loader = loader(ds, workers)) {
                state = ResumeRuns.stopAfter(loader, EPOCHS, stop, TarShardResumeTest::describe, seen);
            }
            try (DataLoader<TarSample> loader = loader(ds, workers)) {
                ResumeRuns.resume(loader, state, EPOCHS, TarShardResumeTest::describe, seen, () -> {});
            }
            assertThat(seen).as(what).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void indexedShardsInAShardLocalOrderResumeOnAnotherWorldSize() {
        try (IndexedTarDataset tars = IndexedTarDataset.open(dir.resolve("R-{00..07}.tar").toString(),
                IndexedTarDataset.MissingIndex.FAIL)) {
            Random random = new Random(8);
            for (int trial = 0; trial < 12; trial++) {
                int before = 1 + random.nextInt(3);
                int after = 1 + random.nextInt(3);
                long seed = random.nextLong();
                int stop = random.nextInt(9); // of the 8 global batches of 12 (drop last)
                List<String> keys = new ArrayList<>();
                LoaderState state = null;
                for (int r = 0; r < before; r++) {
                    try (DataLoader<TarSample> loader = shardLocal(tars, seed, r, before, random.nextInt(3))) {
                        state = ResumeRuns.stopAfter(loader, 1, stop, b -> keysOf(b, keys), new ArrayList<>());
                    }
                }
                for (int r = 0; r < after; r++) {
                    try (DataLoader<TarSample> loader = shardLocal(tars, seed, r, after, random.nextInt(3))) {
                        ResumeRuns.resume(loader, state, 1, b -> keysOf(b, keys), new ArrayList<>(), () -> {});
                    }
                }
                assertThat(keys).as("trial %d: %d -> %d ranks, stop at %d", trial, before, after, stop)
                        .hasSize(96).doesNotHaveDuplicates();
            }
        }
    }

    /** Rank {@code rank}'s loader: global batches of 12 from a block shuffle over 13-sample shards, 2 open at a time. */
    private static DataLoader<TarSample> shardLocal(IndexedTarDataset tars, long seed, int rank, int world, int workers) {
        BatchSampler sampler = ElasticBatchSampler.over(new BlockShuffleSampler(tars.size(), 13, 2, seed), 12, true,
                rank, world);
        return DataLoader.builder(tars).batchSampler(sampler).seed(seed).numWorkers(workers)
                .collate((samples, memory) -> samples.stream().map(TarSample::key).toList()).build();
    }

    /** The loader of {@code builder}, its batches the lists of their samples' keys. */
    private static DataLoader<TarSample> keys(LoaderBuilder<TarSample> builder) {
        return builder.collate((samples, memory) -> samples.stream().map(TarSample::key).toList()).build();
    }

    @SuppressWarnings("unchecked")
    private static String keysOf(Batch b, List<String> keys) {
        keys.addAll((List<String>) b.data());
        return b.index() + "";
    }

    @Test
    void aMergedStateReshardsTheRestOfTheEpochOnAnotherLayout() {
        Random random = new Random(17);
        for (int trial = 0; trial < 60; trial++) {
            TarShardDataset ds = TarShardDataset.builder(dir.resolve("R-{00..07}.tar").toString())
                    .shuffleShards(random.nextBoolean()).build();
            long seed = random.nextLong();
            List<String> keys = new ArrayList<>();
            LoaderState state = null; // null: the epoch's start
            StringBuilder what = new StringBuilder("trial " + trial + ":");
            for (int leg = 0; leg < 3; leg++) { // two stops, each resumed on a new layout, then to the end
                int world = 1 + random.nextInt(3);
                int workers = random.nextInt(3);
                what.append(" ").append(world).append("x").append(workers);
                List<LoaderState> ranks = new ArrayList<>();
                for (int r = 0; r < world; r++) {
                    try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(4).numWorkers(workers)
                            .rank(r).worldSize(world).seed(seed)
                            .collate((samples, memory) -> samples.stream().map(TarSample::key).toList()).build()) {
                        if (state != null) {
                            loader.restore(state);
                        }
                        int stop = leg == 2 ? Integer.MAX_VALUE : random.nextInt(6);
                        ranks.add(ResumeRuns.stopAfter(loader, 1, stop, b -> keysOf(b, keys), new ArrayList<>()));
                    }
                }
                if (ranks.stream().allMatch(r -> r.epoch() > 0)) {
                    break; // every rank finished the epoch
                }
                state = LoaderState.merge(ranks);
                what.append(" stop at ").append(keys.size());
            }
            assertThat(keys).as(what.toString()).hasSize(100).doesNotHaveDuplicates();
        }
    }

    /** A state whose cursor does not fit the shards (another shard list, a forged entry) is refused at restore. */
    @Test
    void aCursorThatDoesNotFitTheShardsIsRefusedAtRestore() {
        TarShardDataset eight = TarShardDataset.builder(dir.resolve("R-{00..07}.tar").toString()).build();
        LoaderState resharded;
        try (DataLoader<TarSample> first = keys(DataLoader.builder(eight).batchSize(4).numWorkers(2))) {
            ResumeRuns.stopAfter(first, 1, 3, b -> "", new ArrayList<>());
            try (DataLoader<TarSample> second = keys(DataLoader.builder(eight).batchSize(4).numWorkers(3))) {
                second.restore(first.state());
                ResumeRuns.stopAfter(second, 1, 2, b -> "", new ArrayList<>());
                resharded = second.state();
            }
        }
        assertThat(resharded.streams().start()).hasSize(8);
        TarShardDataset six = TarShardDataset.builder(dir.resolve("R-{00..05}.tar").toString()).build();
        for (int workers : new int[] {3, 1}) { // the same layout (the cursor opens the streams), and another
            try (DataLoader<TarSample> other = keys(DataLoader.builder(six).batchSize(4).numWorkers(workers))) {
                assertThatThrownBy(() -> other.restore(resharded)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("8 entries, one per shard").hasMessageContaining("has 6 shards");
            }
        }
        var s = resharded.streams();
        for (long bad : new long[] {-2, 14, Long.MAX_VALUE}) {
            long[] cursor = s.start();
            cursor[5] = bad;
            LoaderState forged = new LoaderState(resharded.epoch(), resharded.nextBatch(), new long[0],
                    resharded.seed(), -1, -1, new dev.stoker.loader.StreamState(s.rank(), s.worldSize(), s.batchSize(),
                    s.turn(), s.delivered(), s.samples(), s.batches(), s.ended(), cursor));
            try (DataLoader<TarSample> other = keys(DataLoader.builder(eight).batchSize(4).numWorkers(1))) {
                assertThatThrownBy(() -> other.restore(forged)).as("entry " + bad)
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("R-05.tar");
            }
        }
    }

    @Test
    void aShuffleBufferOrAMissingRankIsRefusedWithAReason() {
        TarShardDataset buffered = TarShardDataset.builder(dir.resolve("R-{00..07}.tar").toString())
                .shuffleBuffer(10).build();
        LoaderState state;
        try (DataLoader<TarSample> loader = keys(DataLoader.builder(buffered).batchSize(4).numWorkers(2))) {
            loader.iterator().next().close();
            state = loader.state();
        }
        try (DataLoader<TarSample> other = keys(DataLoader.builder(buffered).batchSize(4).numWorkers(3))) {
            assertThatThrownBy(() -> other.restore(state)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("shuffle buffer");
        }
        TarShardDataset plain = TarShardDataset.builder(dir.resolve("R-{00..07}.tar").toString()).build();
        LoaderState rank1;
        try (DataLoader<TarSample> loader = keys(DataLoader.builder(plain).batchSize(4).rank(1).worldSize(2))) {
            loader.iterator().next().close();
            rank1 = loader.state();
        }
        try (DataLoader<TarSample> other = keys(DataLoader.builder(plain).batchSize(4))) {
            assertThatThrownBy(() -> other.restore(rank1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("LoaderState.merge");
        }
        assertThatThrownBy(() -> LoaderState.merge(List.of(rank1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 states, one per rank");
    }

    @Test
    void shardsPassedOverWholeAreNotOpened() throws Exception {
        TarShardDataset ds = TarShardDataset.builder(dir.resolve("R-{00..07}.tar").toString()).build();
        LoaderState state;
        try (DataLoader<TarSample> loader = loader(ds, 0)) {
            BatchIterator it = loader.iterator();
            for (int k = 0; k < 5; k++) {
                it.next().close(); // 40 samples: shards 0, 1 and 2 (13 each) and one of shard 3
            }
            state = loader.state();
        }
        for (int s = 0; s < 3; s++) { // the same length, so the sidecars still match, but no tar inside
            Path shard = dir.resolve(String.format("R-%02d.tar", s));
            Files.write(shard, new byte[(int) Files.size(shard)]);
        }
        List<String> rest = new ArrayList<>();
        try (DataLoader<TarSample> loader = loader(ds, 0)) {
            loader.restore(state);
            for (Batch b : loader) {
                try (b) {
                    @SuppressWarnings("unchecked")
                    List<String> labels = (List<String>) b.data();
                    rest.addAll(labels);
                }
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 40; i < 100; i++) {
            expected.add(Integer.toString(i));
        }
        assertThat(rest).containsExactlyElementsOf(expected);
    }
}
