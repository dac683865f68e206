package dev.stoker.formats.parquet;

import static dev.stoker.formats.parquet.ParquetFixtures.ROWS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.loader.StreamState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A Parquet stream's state, merged from every rank, restores onto another number of workers and ranks, twice in
 * an epoch, as tar shards' does: every row is delivered exactly once. Layouts of fewer global workers than row
 * groups (whole groups dealt) and of more (every worker takes every G-th row of each) both occur, and cross.
 */
class ParquetStreamReshardTest {

    /** 1000 rows in 9 row groups (two shards). */
    private static ParquetDataset train() {
        return ParquetDataset.huggingFace(ParquetFixtures.dir().resolve("hf"), "train").columns("id").build();
    }

    private static DataLoader<ParquetRow> loader(StreamingDataset<ParquetRow> s, int rank, int world, int workers,
                                                 long seed, int batch) {
        return DataLoader.builder(s).batchSize(batch).numWorkers(workers).rank(rank).worldSize(world).seed(seed)
                .collate((rows, memory) -> rows.stream().map(r -> r.getLong("id")).toList()).build();
    }

    @SuppressWarnings("unchecked")
    private static String idsOf(Batch b, List<Long> ids) {
        ids.addAll((List<Long>) b.data());
        return b.index() + "";
    }

    @Test
    void aMergedStateReshardsTheRestOfTheEpochOnAnotherLayout() {
        Random random = new Random(1810);
        try (ParquetDataset ds = train()) {
            for (int trial = 0; trial < 40; trial++) {
                boolean tensors = random.nextBoolean();
                ParquetStream rows = ds.stream().shuffled(random.nextBoolean());
                StreamingDataset<ParquetRow> stream = tensors ? rows.tensors(FillColumn.scalar("id")) : rows;
                long seed = random.nextLong();
                int batch = 1 + random.nextInt(40);
                List<Long> ids = new ArrayList<>();
                LoaderState state = null; // null: the epoch's start
                StringBuilder what = new StringBuilder("trial " + trial + ", batches of " + batch + ":");
                for (int leg = 0; leg < 4; leg++) { // three stops, each resumed on a new layout, then to the end
                    int world = 1 + random.nextInt(3);
                    int workers = random.nextInt(5);
                    what.append(" ").append(world).append("x").append(workers);
                    List<LoaderState> ranks = new ArrayList<>();
                    for (int r = 0; r < world; r++) {
                        try (DataLoader<ParquetRow> loader = loader(stream, r, world, workers, seed, batch)) {
                            if (state != null) {
                                loader.restore(state);
                            }
                            int stop = leg == 3 ? Integer.MAX_VALUE : random.nextInt(1 + 600 / batch / world);
                            ranks.add(ResumeRuns.stopAfter(loader, 1, stop, b -> idsOf(b, ids), new ArrayList<>()));
                        }
                    }
                    if (ranks.stream().allMatch(r -> r.epoch() > 0)) {
                        break; // every rank finished the epoch
                    }
                    state = LoaderState.merge(ranks);
                    what.append(" stop at ").append(ids.size());
                }
                assertThat(ids).as(what.toString()).hasSize(ROWS).doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void piecesLeftAreWhatTheStreamsDidNotDeliver() {
        Random random = new Random(1811);
        long[] starts = {0, 128, 256, 384, 512, 600, 728, 856, 984, 1000};
        for (int trial = 0; trial < 300; trial++) {
            List<RowPieces.Piece> pieces = RowPieces.whole(new int[] {3, 0, 8, 5, 1, 7, 2, 6, 4});
            boolean[] delivered = new boolean[ROWS];
            for (int leg = 0; leg < 3; leg++) {
                int streams = 1 + random.nextInt(14);
                long[] positions = new long[streams];
                boolean[] ended = new boolean[streams];
                for (int g = 0; g < streams; g++) {
                    List<Long> mine = rowsOf(RowPieces.mine(pieces, g, streams), starts);
                    ended[g] = random.nextInt(10) == 0;
                    positions[g] = ended[g] ? mine.size() : random.nextInt(mine.size() + 1);
                    for (long row : mine.subList(0, (int) positions[g])) {
                        assertThat(delivered[(int) row]).as("row %d twice", row).isFalse();
                        delivered[(int) row] = true;
                    }
                }
                pieces = RowPieces.advance(pieces, starts, positions, ended);
                long[] cursor = RowPieces.toCursor(pieces, 9);
                assertThat(RowPieces.fromCursor(cursor, starts, "t")).isEqualTo(pieces);
            }
            for (long row : rowsOf(pieces, starts)) {
                assertThat(delivered[(int) row]).as("row %d left and delivered", row).isFalse();
                delivered[(int) row] = true;
            }
            for (int i = 0; i < ROWS; i++) {
                assertThat(delivered[i]).as("trial %d: row %d", trial, i).isTrue();
            }
        }
    }

    private static List<Long> rowsOf(List<RowPieces.Piece> pieces, long[] starts) {
        List<Long> out = new ArrayList<>();
        for (RowPieces.Piece p : pieces) {
            for (long r = p.from(); r < starts[p.group() + 1] - starts[p.group()]; r += p.step()) {
                out.add(starts[p.group()] + r);
            }
        }
        return out;
    }

    /** A cursor of other files, or a forged one, is refused at restore naming what does not fit. */
    @Test
    void aCursorThatDoesNotFitTheFilesIsRefusedAtRestore() {
        try (ParquetDataset ds = train()) {
            LoaderState resharded;
            try (DataLoader<ParquetRow> first = loader(ds.stream(), 0, 1, 2, 5, 8)) {
                ResumeRuns.stopAfter(first, 1, 3, b -> "", new ArrayList<>());
                try (DataLoader<ParquetRow> second = loader(ds.stream(), 0, 1, 3, 5, 8)) {
                    second.restore(LoaderState.merge(List.of(first.state())));
                    ResumeRuns.stopAfter(second, 1, 2, b -> "", new ArrayList<>());
                    resharded = second.state();
                }
            }
            StreamState s = resharded.streams();
            assertThat(s.start()).isNotNull();
            assertThat(s.start()[0]).isEqualTo(9);
            long[][] forged = {{8}, {9, 9, 0, 1}, {9, 2, -1, 1}, {9, 2, 129, 1}, {9, 2, 0, 0}, {9, 2, 0}};
            String[] says = {"is of 8 row groups", "names row group 9", "from row -1", "from row 129", "every 0",
                    "triples"};
            for (int i = 0; i < forged.length; i++) {
                LoaderState bad = new LoaderState(resharded.epoch(), resharded.nextBatch(), new long[0],
                        resharded.seed(), -1, -1, new StreamState(s.rank(), s.worldSize(), s.batchSize(), s.turn(),
                        s.delivered(), s.samples(), s.batches(), s.ended(), forged[i]));
                try (DataLoader<ParquetRow> other = loader(ds.stream(), 0, 1, 1, 5, 8)) {
                    assertThatThrownBy(() -> other.restore(bad)).as(says[i])
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(says[i]);
                }
            }
        }
    }
}
