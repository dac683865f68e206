package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.DataPosition;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParquetTensorDatasetTest {

    @Test
    void theFillPathWritesScalarsAndFixedListsIntoTheBatch() {
        try (ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file("zstd_plain.parquet"));
             DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(FillColumn.scalar("id"),
                             FillColumn.scalar("x"), FillColumn.scalar("f"), FillColumn.scalar("n"),
                             FillColumn.list("window", 4)))
                     .sampler(ds.shuffleSampler(2, 7)).batchSize(64).numWorkers(2).build()) {
            Set<Long> seen = new HashSet<>();
            for (Batch b : loader) {
                try (b) {
                    Tensor id = b.tensor("id");
                    Tensor window = b.tensor("window");
                    assertThat(id.dtype()).isEqualTo(DType.I64);
                    assertThat(window.dtype()).isEqualTo(DType.I32);
                    assertThat(b.tensor("f").dtype()).isEqualTo(DType.F32);
                    for (int j = 0; j < id.shape().dim(0); j++) {
                        long i = id.getLong(j);
                        assertThat(seen.add(i)).isTrue();
                        assertThat(b.tensor("x").getDouble(j)).isEqualTo(i * 0.5);
                        assertThat(b.tensor("f").getDouble(j)).isEqualTo(i * 0.25);
                        assertThat(b.tensor("n").getLong(j)).isEqualTo(i * 3 - 7);
                        assertThat(window.select(j).toIntArray()).containsExactly(ParquetFixtures.window(i));
                    }
                }
            }
            assertThat(seen).hasSize(ParquetFixtures.ROWS);
        }
    }

    @Test
    void aSequentialBatchIsCopiedInRunsAcrossRowGroupsAndFiles() {
        // 600 + 400 rows in two shards: batches of 100 cross row groups (128) and the file boundary (600)
        try (ParquetDataset ds = ParquetDataset.builder(ParquetFiles.huggingFace(ParquetFixtures.dir().resolve("hf"),
                "train")).build();
             DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(FillColumn.scalar("id"),
                     FillColumn.list("window", 4))).batchSize(100).build()) {
            long next = 0;
            for (Batch b : loader) {
                try (b) {
                    Tensor id = b.tensor("id");
                    for (int j = 0; j < id.shape().dim(0); j++) {
                        assertThat(id.getLong(j)).isEqualTo(next);
                        assertThat(b.tensor("window").select(j).toIntArray()).containsExactly(ParquetFixtures.window(next));
                        next++;
                    }
                }
            }
            assertThat(next).isEqualTo(ParquetFixtures.ROWS);
        }
    }

    /**
     * A row group kept in the chunks Hardwood decoded it in (7 rows each here): a batch run that
     * spans chunks is copied piece by piece, and a bad row in a later chunk is named by its row in
     * the group.
     */
    @Test
    void runsAcrossDecodedChunksAreCopiedWholeAndBadRowsNamedInTheGroup() {
        try (ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("snappy_dict.parquet"))
                .decodeBatchRows(7).build();
             DataLoader<Map<String, Tensor>> loader = DataLoader.builder(ds.tensors(FillColumn.scalar("id"),
                     FillColumn.scalar("x"), FillColumn.list("window", 4))).batchSize(50).build()) {
            long next = 0;
            for (Batch b : loader) {
                try (b) {
                    Tensor id = b.tensor("id");
                    for (int j = 0; j < id.shape().dim(0); j++) {
                        assertThat(id.getLong(j)).isEqualTo(next);
                        assertThat(b.tensor("x").getDouble(j)).isEqualTo(next * 0.5);
                        assertThat(b.tensor("window").select(j).toIntArray()).containsExactly(ParquetFixtures.window(next));
                        next++;
                    }
                }
            }
            assertThat(next).isEqualTo(ParquetFixtures.ROWS);
            ParquetTensorDataset t = ds.tensors(FillColumn.list("tokens", 4));
            // row 130 is row 2 of row group 1, in its first chunk; row 147 (147 % 11 == 4: null) is row 19, in its third
            assertThatThrownBy(() -> t.get(130)).isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("row group 1, column 'tokens', row 2: the list holds 0 values");
            assertThatThrownBy(() -> t.get(147)).isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("row group 1, column 'tokens', row 19: the value is null");
        }
    }

    @Test
    void getGivesWhatFillWrites() {
        try (ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file("snappy_dict.parquet"))) {
            Map<String, Tensor> s = ds.tensors(FillColumn.scalar("label"), FillColumn.list("window", 4)).get(500);
            assertThat(s.get("label").getLong(0)).isEqualTo(0);
            assertThat(s.get("window").toIntArray()).containsExactly(500, 501, 502, 503);
        }
    }

    @Test
    void aListOfAnotherLengthOrANullFailsNamingTheRow() {
        try (ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file("snappy_dict.parquet"))) {
            ParquetTensorDataset t = ds.tensors(FillColumn.list("tokens", 4));
            assertThatThrownBy(() -> t.get(130)).isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("row group 1, column 'tokens', row 2: the list holds 0 values");
            // 4 % 11 == 4: null
            assertThatThrownBy(() -> t.get(4)).isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("row group 0, column 'tokens', row 4: the value is null");
            // the file and the row in it are fields too (row group 1 starts at row 128 of the file)
            ParquetFormatException e = catchThrowableOfType(ParquetFormatException.class, () -> t.get(130));
            assertThat(e.source()).isEqualTo(ParquetFixtures.file("snappy_dict.parquet").toString());
            assertThat(e.position()).isEqualTo(DataPosition.row(130));
            assertThat(e.what()).startsWith("the list holds 0 values");
        }
    }

    @Test
    void stringsAndVariableListsAreNotFilled() {
        try (ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file("snappy_dict.parquet"))) {
            assertThatThrownBy(() -> ds.tensors(FillColumn.scalar("text"))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("STRING");
            assertThatThrownBy(() -> ds.tensors(FillColumn.scalar("window")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FillColumn.list");
        }
    }
}
