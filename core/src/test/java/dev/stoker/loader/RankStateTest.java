package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.data.CountingDataset;
import dev.stoker.sampler.DistributedSampler;
import dev.stoker.sampler.ElasticBatchSampler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A map-style state records the rank and world size of its batch sampler, and a restore on
 * another world size (or another rank, where batches went out of order) is refused: with the same dataset, seed and batches per epoch (a
 * world of 2 with batches of 50 against a world of 4 with batches of 25) it used to be accepted
 * and went on with other samples, skipping some and repeating others. An elastic sampler restores
 * anywhere; a state saved before Stoker recorded them restores unchecked.
 */
class RankStateTest {
    private static final long SIZE = 1000;

    private static DataLoader<Long> loader(int rank, int world, int batch) {
        DistributedSampler share = DistributedSampler.builder(SIZE).numReplicas(world).rank(rank).seed(3).build();
        return DataLoader.builder(new CountingDataset(SIZE)).sampler(share).batchSize(batch).seed(3).build();
    }

    /** The state after {@code batches} batches of epoch 0. */
    private static LoaderState after(DataLoader<Long> loader, int batches) {
        BatchIterator it = loader.iterator();
        for (int i = 0; i < batches; i++) {
            it.next().close();
        }
        return loader.state();
    }

    private static List<String> rest(DataLoader<Long> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                out.add(b.index() + ":" + Arrays.toString(b.indices()));
            }
        }
        return out;
    }

    @Test
    void aStateRecordsItsRankAndWorld() {
        try (DataLoader<Long> rank1 = loader(1, 2, 50)) {
            LoaderState s = after(rank1, 3);
            assertThat(s.rank()).isEqualTo(1);
            assertThat(s.worldSize()).isEqualTo(2);
            assertThat(s).hasToString("LoaderState(epoch 0, next batch 3 of 10, seed 3, 1000 samples, rank 1 of 2)");
        }
    }

    @Test
    void anotherWorldWithTheSameBatchCountIsRefused() {
        LoaderState state;
        try (DataLoader<Long> two = loader(0, 2, 50)) {
            state = after(two, 3);
        }
        try (DataLoader<Long> four = loader(0, 4, 25)) {
            assertThat(four.batchesPerEpoch()).isEqualTo(10); // sizes, seed and batch count all agree
            assertThatThrownBy(() -> four.restore(state)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("this state was taken by rank 0 of a world of 2, and this loader is rank 0"
                            + " of 4")
                    .hasMessageContaining("would skip some and repeat others")
                    .hasMessageContaining("ElasticBatchSampler");
        }
    }

    @Test
    void rankZerosStateRestoresOnEveryRankOfTheSameWorld() {
        // PyTorch jobs often save one checkpoint (rank 0's) and load it on every rank: in a lockstep job each
        // rank stands at the same batch, so each goes on with its own share from there
        LoaderState rank0;
        try (DataLoader<Long> r0 = loader(0, 2, 50)) {
            rank0 = after(r0, 4);
        }
        List<String> whole1;
        try (DataLoader<Long> r1 = loader(1, 2, 50)) {
            whole1 = rest(r1);
        }
        try (DataLoader<Long> r1 = loader(1, 2, 50)) {
            r1.restore(rank0);
            assertThat(rest(r1)).isEqualTo(whole1.subList(4, whole1.size()));
        }
    }

    @Test
    void anotherRanksStateWithBatchesDeliveredOutOfOrderIsRefused() {
        LoaderState ahead = LoaderState.ofMap(0, 4, new long[] {6}, 3, SIZE, 10, 0, 2);
        try (DataLoader<Long> r1 = loader(1, 2, 50)) {
            assertThatThrownBy(() -> r1.restore(ahead)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("this state was taken by rank 0 of a world of 2, and this loader is rank 1"
                            + " of 2")
                    .hasMessageContaining("delivered no batch out of order");
        }
        try (DataLoader<Long> r0 = loader(0, 2, 50)) {
            r0.restore(ahead); // its own rank's state with a batch ahead is exact
            assertThat(rest(r0)).hasSize(5);
        }
    }

    @Test
    void anElasticSamplersStateRestoresOnAnyWorld() {
        LoaderState state;
        try (DataLoader<Long> two = DataLoader.builder(new CountingDataset(SIZE))
                .batchSampler(new ElasticBatchSampler(SIZE, 100, true, 3, false, 1, 2)).seed(3).build()) {
            state = after(two, 3);
        }
        assertThat(state.worldSize()).isEqualTo(2);
        try (DataLoader<Long> four = DataLoader.builder(new CountingDataset(SIZE))
                .batchSampler(new ElasticBatchSampler(SIZE, 100, true, 3, false, 3, 4)).seed(3).build()) {
            four.restore(state);
            assertThat(rest(four)).hasSize(7);
        }
    }

    @Test
    void aStateSavedBeforeRanksWereRecordedReadsAndRestoresUnchecked() throws Exception {
        ObjectMapper json = new ObjectMapper();
        LoaderState old = json.readValue("{\"epoch\":0,\"nextBatch\":3,\"deliveredAhead\":[],\"seed\":3,"
                + "\"datasetSize\":1000,\"batchesPerEpoch\":10,\"streams\":null}", LoaderState.class);
        assertThat(old.rank()).isZero();
        assertThat(old.worldSize()).isZero();
        try (DataLoader<Long> four = loader(2, 4, 25)) {
            four.restore(old);
            assertThat(rest(four)).hasSize(7);
        }
    }

    @Test
    void rankAndWorldGoThroughJsonAndForgedOnesAreRefusedWhenRead() throws Exception {
        ObjectMapper json = new ObjectMapper();
        LoaderState state = LoaderState.ofMap(2, 3, new long[] {5}, 3, 1000, 10, 1, 2);
        String text = json.writeValueAsString(state);
        assertThat(text).contains("\"rank\":1", "\"worldSize\":2");
        assertThat(json.readValue(text, LoaderState.class)).isEqualTo(state);
        for (String pair : List.of("\"rank\":2,\"worldSize\":2", "\"rank\":-1,\"worldSize\":2",
                "\"rank\":1,\"worldSize\":0", "\"rank\":0,\"worldSize\":-3")) {
            String forged = text.replace("\"rank\":1,\"worldSize\":2", pair);
            assertThat(forged).isNotEqualTo(text);
            assertThatThrownBy(() -> json.readValue(forged, LoaderState.class))
                    .hasRootCauseInstanceOf(IllegalArgumentException.class)
                    .rootCause().hasMessageContaining("is no rank");
        }
    }
}
