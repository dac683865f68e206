package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fill path over fixed-shape columns, alone and under a loader, against the collate path. */
class MdsTensorDatasetTest {
    private static final String[] COLUMNS = {"arr_fixed", "n", "u32", "f16", "i8", "arr_u32"};

    @TempDir
    Path dir;

    @Test
    void theLayoutNamesEachColumnsDtypeAndShape() {
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir))) {
            MdsTensorDataset t = ds.tensors(COLUMNS);
            assertThat(t.layout().toString()).isEqualTo("{arr_fixed: f32 " + Shape.of(2, 3) + ", n: i64 "
                    + Shape.scalar() + ", u32: i64 " + Shape.scalar() + ", f16: f16 " + Shape.scalar() + ", i8: i8 "
                    + Shape.scalar() + ", arr_u32: i64 " + Shape.of(4) + "}");
            assertThatThrownBy(() -> ds.tensors("arr")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("column 'arr' is ndarray");
            assertThatThrownBy(() -> ds.tensors("text")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ds.tensors("missing")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no column 'missing'");
        }
    }

    @Test
    void fillWritesWhatGetGivesAndWhatTheWriterWasGiven() {
        JsonNode expected = MdsFixtures.expected("scalars").get("samples");
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir)); Arena arena = Arena.ofConfined()) {
            MdsTensorDataset t = ds.tensors(COLUMNS);
            List<Tensor> batch = new ArrayList<>();
            for (var f : t.layout().fields()) {
                batch.add(Tensor.allocate(arena, f.dtype(), f.shape().prepend(ds.size())));
            }
            BatchSlots slots = new BatchSlots(t.layout(), batch);
            for (int i = 0; i < ds.size(); i++) {
                t.fill(i, slots.slot(i));
                Map<String, Tensor> got = t.get(i);
                for (int f = 0; f < COLUMNS.length; f++) {
                    assertThat(batch.get(f).select(i).toByteArray()).as("sample %d %s", i, COLUMNS[f])
                            .isEqualTo(got.get(COLUMNS[f]).toByteArray());
                }
                ExpectedValues.assertArray(got.get("arr_fixed"), expected.get(i).get("arr_fixed"), "arr_fixed");
                ExpectedValues.assertArray(got.get("arr_u32"), expected.get(i).get("arr_u32"), "arr_u32");
                assertThat(got.get("n").getLong(0)).isEqualTo(expected.get(i).get("n").asLong());
                assertThat(got.get("u32").getLong(0)).isEqualTo(expected.get(i).get("u32").asLong());
                assertThat(got.get("f16").getDouble(0)).isEqualTo(expected.get(i).get("f16").asDouble());
            }
            MdsTensorDataset wide = ds.tensors("u64");
            assertThat(wide.get(2).get("u64").getLong(0)).isEqualTo(2 * 12345);
            assertThatThrownBy(() -> wide.get(1)).isInstanceOf(MdsFormatException.class)
                    .hasMessageContaining("sample 1").hasMessageContaining("column 'u64'");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"scalars", "scalars_zstd", "zero_shard"})
    void theLoaderFillsOrCollatesTheSameBatchesAndEmptiesItsPool(String set) {
        String[] columns = set.equals("zero_shard") ? new String[] {"x", "y", "w", "u"} : COLUMNS;
        Path path = MdsFixtures.copy(set, dir);
        for (int run = 0; run < 4; run++) {
            int workers = run % 2 == 0 ? 0 : 2;
            boolean collate = run >= 2;
            long seen = 0;
            try (MdsDataset ds = MdsDataset.open(path)) {
                MdsTensorDataset t = ds.tensors(columns);
                try (DataLoader<?> loader = builder(t, collate).batchSize(4).shuffle(true).seed(11)
                        .numWorkers(workers).build()) {
                    for (Batch b : loader) {
                        try (b) {
                            for (int j = 0; j < b.indices().length; j++) {
                                Map<String, Tensor> want = t.get(b.indices()[j]);
                                for (String c : columns) {
                                    Tensor col = b.tensor(c);
                                    assertThat(col.shape()).isEqualTo(t.layout().field(t.layout().indexOf(c)).shape()
                                            .prepend(b.indices().length));
                                    assertThat(col.select(j).toByteArray()).as("%s sample %d", c, b.indices()[j])
                                            .isEqualTo(want.get(c).toByteArray());
                                }
                            }
                            seen += b.indices().length;
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(seen).isEqualTo(ds.size());
            }
        }
    }

    @Test
    void zeroShardValuesComeThroughTheLoaderAsWritten() {
        try (MdsDataset ds = MdsDataset.open(MdsFixtures.copy("zero_shard", dir));
             DataLoader<?> loader = DataLoader.builder(ds.tensors("x", "y", "u")).batchSize(9).build()) {
            for (Batch b : loader) {
                try (b) {
                    assertThat(b.tensor("y").toLongArray()).containsExactly(-7, -4, -1, 2, 5, 8, 11, 14, 17);
                    assertThat(b.tensor("u").dtype()).isEqualTo(DType.I64);
                    assertThat(b.tensor("u").getLong(8)).isEqualTo(4_000_000_008L);
                    assertThat(b.tensor("x").shape()).isEqualTo(Shape.of(9, 2, 3));
                    assertThat(b.tensor("x").getFloat(6 * 8 + 5)).isEqualTo(8f + 5f);
                }
            }
        }
    }

    private static LoaderBuilder<Map<String, Tensor>> builder(MdsTensorDataset t, boolean collate) {
        LoaderBuilder<Map<String, Tensor>> b = DataLoader.builder(t);
        return collate ? b.collate(DefaultCollate.instance()) : b;
    }
}
