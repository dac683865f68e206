package dev.stoker.formats.parquet;

import static dev.stoker.formats.parquet.ParquetFixtures.ROWS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ParquetStreamTest {
    /** 1000 rows in 9 row groups: 4 of 128 and 88, then 3 of 128 and 16 (two shards). */
    private static ParquetDataset train(String... columns) {
        return ParquetDataset.huggingFace(ParquetFixtures.dir().resolve("hf"), "train").columns(columns).build();
    }

    private static List<Long> ids(SampleStream<ParquetRow> s) {
        List<Long> out = new ArrayList<>();
        try (s) {
            while (s.hasNext()) {
                out.add(s.next().getLong("id"));
            }
        }
        return out;
    }

    @Test
    void oneWorkerReadsEveryRowInFileOrder() {
        try (ParquetDataset ds = train("id", "text")) {
            List<Long> got = ids(ds.stream().open(new WorkerContext(0, 1, 0, 1, 0, 42)));
            assertThat(got).hasSize(ROWS);
            for (int i = 0; i < ROWS; i++) {
                assertThat(got.get(i)).isEqualTo(i);
            }
        }
    }

    @Test
    void workersOfAllRanksReadEveryRowOnceWhateverTheirNumber() {
        try (ParquetDataset ds = train("id")) {
            // 3 and 8 global workers take whole row groups; 12 take every 12th row of every group
            for (int[] layout : new int[][] {{3, 1}, {2, 4}, {3, 4}}) {
                for (boolean shuffled : new boolean[] {false, true}) {
                    int workers = layout[0];
                    int world = layout[1];
                    boolean[] seen = new boolean[ROWS];
                    for (int rank = 0; rank < world; rank++) {
                        for (int w = 0; w < workers; w++) {
                            for (long id : ids(ds.stream().shuffled(shuffled)
                                    .open(new WorkerContext(w, workers, rank, world, 3, 42)))) {
                                assertThat(seen[(int) id]).as("row %d twice (%s)", id, List.of(workers, world)).isFalse();
                                seen[(int) id] = true;
                            }
                        }
                    }
                    for (int i = 0; i < ROWS; i++) {
                        assertThat(seen[i]).as("row %d read", i).isTrue();
                    }
                }
            }
        }
    }

    @Test
    void shuffledRowGroupsChangeWithTheEpochAndNotWithTheRank() {
        try (ParquetDataset ds = train("id")) {
            ParquetStream s = ds.stream().shuffled(true);
            int[] e0 = s.order(42, 0);
            assertThat(e0).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8);
            assertThat(s.order(42, 0)).containsExactly(e0);
            assertThat(s.order(42, 1)).isNotEqualTo(e0);
            assertThat(ds.stream().order(42, 5)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
            List<Long> first = ids(s.open(new WorkerContext(0, 1, 0, 1, 0, 42)));
            // within a row group, rows stay in order: the first row read starts a row group
            assertThat(ds.rowGroupStarts()).contains(first.getFirst());
        }
    }

    @Test
    void skipMovesPastRowsAsReadingThemWould() {
        SplittableRandom random = new SplittableRandom(11);
        try (ParquetDataset ds = train("id")) {
            for (int trial = 0; trial < 40; trial++) {
                int workers = 1 + random.nextInt(12);
                int w = random.nextInt(workers);
                WorkerContext ctx = new WorkerContext(w, workers, 0, 1, random.nextInt(3), 42);
                ParquetStream s = ds.stream().shuffled(random.nextBoolean());
                List<Long> all = ids(s.open(ctx));
                long n = random.nextInt(all.size() + 10);
                try (SampleStream<ParquetRow> rest = s.open(ctx)) {
                    if (random.nextBoolean() && rest.hasNext()) {   // sometimes from inside a row group
                        rest.next();
                        n = Math.max(1, n);
                        long moved = rest.skip(n - 1);
                        assertThat(moved).isEqualTo(Math.min(n - 1, all.size() - 1));
                    } else {
                        assertThat(rest.skip(n)).isEqualTo(Math.min(n, all.size()));
                    }
                    List<Long> tail = ids(rest);
                    assertThat(tail).as("trial %d, %d of %d workers, skip %d", trial, w, workers, n)
                            .isEqualTo(all.subList((int) Math.min(n, all.size()), all.size()));
                }
            }
        }
    }

    @Test
    void theFillPathStreamsColumnsIntoBatchesAndResumes() {
        try (ParquetDataset ds = train("id", "window")) {
            ParquetTensorStream t = ds.stream().shuffled(true).tensors(FillColumn.scalar("id"), FillColumn.list("window", 4));
            List<Long> whole = new ArrayList<>();
            LoaderState mid = null;
            try (DataLoader<ParquetRow> loader = DataLoader.builder(t).batchSize(50).numWorkers(2).seed(5).build()) {
                int batches = 0;
                for (Batch b : loader) {
                    try (b) {
                        Tensor id = b.tensor("id");
                        for (int j = 0; j < id.shape().dim(0); j++) {
                            long i = id.getLong(j);
                            whole.add(i);
                            assertThat(b.tensor("window").select(j).toIntArray()).containsExactly(ParquetFixtures.window(i));
                        }
                    }
                    if (++batches == 7) {
                        mid = loader.state();
                    }
                }
            }
            assertThat(whole).doesNotHaveDuplicates().hasSize(ROWS);
            List<Long> after = new ArrayList<>();
            try (DataLoader<ParquetRow> loader = DataLoader.builder(t).batchSize(50).numWorkers(2).seed(5).build()) {
                loader.restore(mid);
                for (Batch b : loader) {
                    try (b) {
                        Tensor id = b.tensor("id");
                        for (int j = 0; j < id.shape().dim(0); j++) {
                            after.add(id.getLong(j));
                        }
                    }
                }
            }
            assertThat(after).isEqualTo(whole.subList(whole.size() - after.size(), whole.size()));
            assertThat(after.size()).isEqualTo(ROWS - 7 * 50);
        }
    }

    @Test
    void stringsAreViewsIntoTheRowGroup() {
        try (ParquetDataset ds = train("id", "text")) {
            Iterator<ParquetRow> rows = ds.stream().open(new WorkerContext(0, 1, 0, 1, 0, 42));
            for (int i = 0; i < 20; i++) {
                ParquetRow r = rows.next();
                String text = ParquetFixtures.text(i);
                if (text != null) {
                    assertThat(r.getBytesView("text").isReadOnly()).isTrue();
                    assertThat(new String(r.getBytesView("text").toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                            StandardCharsets.UTF_8)).isEqualTo(text);
                }
            }
            ((SampleStream<ParquetRow>) rows).close();
        }
    }

    @Test
    void aHuggingFaceSplitOpensByName() {
        Path root = ParquetFixtures.dir().resolve("hf");
        try (ParquetDataset test = ParquetDataset.huggingFace(root, "test").build()) {
            assertThat(test.size()).isEqualTo(200);
        }
    }

    @Test
    void listLengthsAreEveryRowsValueCount() {
        try (ParquetDataset ds = train("id", "tokens")) {
            int[] lengths = ds.listLengths("tokens");
            assertThat(lengths).hasSize(ROWS);
            for (int i = 0; i < ROWS; i++) {
                int[] tokens = ParquetFixtures.tokens(i);
                assertThat(lengths[i]).as("row %d", i).isEqualTo(tokens == null ? 0 : tokens.length);
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ds.listLengths("id"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a list");
        }
    }
}
