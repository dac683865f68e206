package dev.stoker.formats.npy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fill path (rows copied from the map into the batch) gives the batches the get path and collate give. */
class NpyDatasetFillTest {

    private static List<String> batches(NpyDataset rows, boolean fill) {
        List<String> out = new ArrayList<>();
        LoaderBuilder<Tensor> b = DataLoader.builder(rows).batchSize(2).shuffle(true).seed(3);
        if (!fill) {
            b.collate(DefaultCollate.instance());
        }
        try (DataLoader<Tensor> loader = b.build()) {
            for (Batch batch : loader) {
                try (batch) {
                    Tensor t = (Tensor) batch.data();
                    out.add(t.dtype() + " " + t.shape() + " "
                            + Arrays.toString(t.segment().toArray(ValueLayout.JAVA_BYTE)));
                }
            }
        }
        return out;
    }

    @Test
    void fillingTheBatchGivesWhatCollatingTheRowsGives() throws IOException {
        for (String name : new String[] {"le_f4", "le_b1", "one_d_u2", "three_d_f4", "be_i4", "fortran_3d_i2"}) {
            try (NpyFile npy = NpyFile.open(NpyFixturesTest.folder().resolve(name + ".npy"))) {
                List<String> filled = batches(npy.rows(), true);
                assertThat(filled).as(name).isNotEmpty().isEqualTo(batches(npy.rows(), false));
            }
        }
    }

    @Test
    void rowsOfNoElementsFillAsTheyCollate(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("empty_rows.npy");
        try (Arena arena = Arena.ofConfined()) {
            NpyWriter.write(file, Tensor.allocate(arena, DType.F32, Shape.of(5, 0)));
        }
        try (NpyFile npy = NpyFile.open(file)) {
            List<String> filled = batches(npy.rows(), true);
            assertThat(filled).hasSize(3).isEqualTo(batches(npy.rows(), false));
        }
    }
}
