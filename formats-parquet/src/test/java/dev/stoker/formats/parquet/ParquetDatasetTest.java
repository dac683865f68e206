package dev.stoker.formats.parquet;

import static dev.stoker.formats.parquet.ParquetFixtures.ROWS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class ParquetDatasetTest {
    static final List<String> FILES = ParquetFixtures.FILES;

    @ParameterizedTest
    @FieldSource("FILES")
    void everyCodecAndEncodingReadsEveryValue(String name) {
        try (ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file(name))) {
            assertEveryValue(ds);
        }
    }

    /**
     * A row group decoded in batches of 7 rows (its 128 rows in 19, the last short): every value
     * lands at its row, nulls, lists and strings across batch boundaries included.
     */
    @ParameterizedTest
    @FieldSource("FILES")
    void aRowGroupDecodedInManyBatchesReadsEveryValue(String name) {
        try (ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file(name)).decodeBatchRows(7).build()) {
            assertEveryValue(ds);
        }
    }

    private static void assertEveryValue(ParquetDataset ds) {
        assertThat(ds.size()).isEqualTo(ROWS);
        assertThat(ds.rowGroups()).isEqualTo(8);
        for (long i = 0; i < ROWS; i++) {
            ParquetRow r = ds.get(i);
            assertThat(r.getLong("id")).isEqualTo(i);
            assertThat(r.getDouble("x")).isEqualTo(i * 0.5);
            assertThat(r.getDouble("f")).isEqualTo(i * 0.25);
            assertThat(r.getLong("n")).isEqualTo(i * 3 - 7);
            assertThat(r.getLong("label")).isEqualTo(i % 10);
            String text = ParquetFixtures.text(i);
            assertThat(r.isNull("text")).isEqualTo(text == null);
            if (text != null) {
                assertThat(r.getString("text")).isEqualTo(text);
            }
            assertThat(r.getBytes("blob")).containsExactly(ParquetFixtures.blob(i));
            int[] tokens = ParquetFixtures.tokens(i);
            assertThat(r.isNull("tokens")).isEqualTo(tokens == null);
            if (tokens != null) {
                assertThat(r.getIntList("tokens")).containsExactly(tokens);
            }
            assertThat(r.getIntList("window")).containsExactly(ParquetFixtures.window(i));
            assertThat(r.index()).isEqualTo(i);
        }
    }

    @Test
    void projectionReadsOnlyTheNamedColumnsInTheirOrder() {
        try (ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("snappy_dict.parquet"))
                .columns("window", "id").build()) {
            assertThat(ds.columns()).extracting(ParquetColumn::name).containsExactly("window", "id");
            assertThat(ds.columns().getFirst().kind()).isEqualTo(ColumnKind.INT32_LIST);
            assertThat(ds.columns().getFirst().path()).isEqualTo("window.list.element");
            ParquetRow r = ds.get(999);
            assertThat(r.getLong("id")).isEqualTo(999);
            assertThatThrownBy(() -> r.getString("text")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("text");
        }
    }

    @Test
    void anUnknownColumnIsRefusedNamingTheFileAndTheColumnsThereAre() {
        assertThatThrownBy(() -> ParquetDataset.builder(ParquetFixtures.file("snappy_dict.parquet"))
                .columns("input_ids").build()).isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("snappy_dict.parquet").hasMessageContaining("input_ids")
                .hasMessageContaining("tokens");
    }

    @Test
    void aNullValueFailsNamingFileRowGroupColumnAndRow() {
        try (ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file("snappy_dict.parquet"))) {
            // row 129 is row 1 of row group 1, and 129 % 7 == 3: its text is null
            assertThatThrownBy(() -> ds.get(129).getString("text")).isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("snappy_dict.parquet, row group 1, column 'text', row 1");
        }
    }

    @Test
    void aHuggingFaceSplitIsItsShardsInOrder() {
        Path root = ParquetFixtures.dir().resolve("hf");
        List<Path> train = ParquetFiles.huggingFace(root, "train");
        assertThat(train).extracting(p -> p.getFileName().toString())
                .containsExactly("train-00000-of-00002.parquet", "train-00001-of-00002.parquet");
        try (ParquetDataset ds = ParquetDataset.builder(train).columns("id", "text").build()) {
            assertThat(ds.size()).isEqualTo(ROWS);
            // 600 rows = 4 full groups + 88, then 400 = 3 full + 16
            assertThat(ds.rowGroupStarts()).containsExactly(0, 128, 256, 384, 512, 600, 728, 856, 984, 1000);
            for (long i = 0; i < ROWS; i += 7) {
                assertThat(ds.get(i).getLong("id")).isEqualTo(i);
            }
        }
        try (ParquetDataset test = ParquetDataset.builder(ParquetFiles.huggingFace(root, "test")).build()) {
            assertThat(test.size()).isEqualTo(200);
        }
        assertThatThrownBy(() -> ParquetFiles.huggingFace(root, "validation")).isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("validation");
    }

    @Test
    void aSplitMissingAShardIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.copy(ParquetFixtures.dir().resolve("hf/data/train-00000-of-00002.parquet"),
                data.resolve("train-00000-of-00002.parquet"));
        assertThatThrownBy(() -> ParquetFiles.huggingFace(dir, "train")).isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("shard 00001 is missing");
    }

    @Test
    void aFolderIsItsParquetFilesSortedByName() {
        List<Path> all = ParquetFiles.of(ParquetFixtures.dir().resolve("hf"));
        assertThat(all).hasSize(3);
        assertThat(all.getFirst().getFileName().toString()).isEqualTo("test-00000-of-00001.parquet");
    }

    @Test
    void aRowGroupClaimingMoreRowsThanAllowedIsRefusedBeforeDecoding() {
        assertThatThrownBy(() -> ParquetDataset.builder(ParquetFixtures.file("none_plain.parquet"))
                .maxRowGroupRows(100).build()).isInstanceOf(ParquetFormatException.class)
                .hasMessageContaining("none_plain.parquet, row group 0: claims 128 rows");
    }

    @Test
    void aRowGroupLargerThanTheDecodeBudgetIsRefusedNamingIt() {
        try (ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("none_plain.parquet"))
                .maxRowGroupBytes(1000).build()) {
            assertThatThrownBy(() -> ds.get(300)).isInstanceOf(ParquetFormatException.class)
                    .hasMessageContaining("none_plain.parquet, row group 2").hasMessageContaining("maxRowGroupBytes");
        }
    }

    @Test
    void aPageThatClaimsToRunPastItsChunkIsRefusedNotLoopedOn(@TempDir Path dir) throws Exception {
        // the fuzz case that made Hardwood 1.0.1 loop forever: flipped bytes in a page header of row group 3
        Path file = dir.resolve("damaged.parquet");
        Files.copy(ParquetFixtures.file("snappy_dict.parquet"), file);
        ParquetCorruptor.damage(file, 27 * 1_000_003L + 3);
        List<String> errors = new java.util.ArrayList<>();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (ParquetDataset ds = ParquetDataset.open(file)) {
                for (long i = 0; i < ds.size(); i++) {
                    try {
                        ds.get(i);
                    } catch (ParquetFormatException e) {
                        errors.add(e.getMessage());
                    }
                }
            }
        });
        assertThat(errors).allMatch(m -> m.contains(file.toString()) && m.contains("row group"))
                .anyMatch(m -> m.contains("past its column chunk"));
    }

    @Test
    void aRowGroupIsDecodedOncePerWorkerWhileCached() {
        try (ParquetDataset ds = ParquetDataset.builder(ParquetFixtures.file("snappy_dict.parquet"))
                .cacheRowGroups(1).build()) {
            RowGroupData first = ds.rowGroup(0);
            assertThat(ds.rowGroup(0)).isSameAs(first);
            ds.rowGroup(1);
            assertThat(ds.rowGroup(0)).isNotSameAs(first);
        }
    }

    @Test
    void aClosedDatasetRefusesReads() {
        ParquetDataset ds = ParquetDataset.open(ParquetFixtures.file("snappy_dict.parquet"));
        ds.close();
        assertThatThrownBy(() -> ds.get(0)).isInstanceOf(IllegalStateException.class);
    }
}
