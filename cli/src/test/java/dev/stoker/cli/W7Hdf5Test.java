package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.stoker.formats.hdf5.Hdf5Dataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** W7 over a small data.h5 written by jhdf: every configuration delivers every row with its label. */
class W7Hdf5Test {
    static final int ROWS = 100;

    @TempDir
    Path data;

    @Test
    void everyConfigurationDeliversEveryRowWithItsLabel() {
        float[][][][] values = new float[ROWS][3][64][64];
        long[] labels = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            values[i][2][63][63] = i + 0.5f; // the row's last element names it
            values[i][0][0][0] = -i;
            labels[i] = 1000 + i;
        }
        try (WritableHdfFile out = HdfFile.write(data.resolve(W7Hdf5.FILE))) {
            out.putDataset("data", values);
            out.putDataset("labels", labels);
        }
        try (W7Hdf5 w7 = new W7Hdf5(ROWS)) {
            for (Configuration c : w7.configurations()) {
                Set<Long> seen = new HashSet<>();
                try (DataLoader<?> loader = w7.newLoader(c, 0, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor x = b.tensor("data");
                            Tensor y = b.tensor("labels");
                            int n = b.indices().length;
                            assertThat(x.dtype()).isEqualTo(DType.F32);
                            assertThat(x.shape()).isEqualTo(Shape.of(n, 3, 64, 64));
                            assertThat(y.shape()).isEqualTo(Shape.of(n));
                            for (int j = 0; j < n; j++) {
                                long i = b.indices()[j];
                                assertThat(x.get(j, 2, 63, 63)).isEqualTo(i + 0.5);
                                assertThat(x.get(j, 0, 0, 0)).isEqualTo(-i);
                                assertThat(y.getLong(j)).isEqualTo(1000 + i);
                                seen.add(i);
                            }
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(seen).as(c.name()).hasSize(ROWS);
            }
        }
    }

    @Test
    void theGeneratedFileIsContiguousWithTheWorkloadsShapes() {
        Path file = data.resolve("generated.h5");
        W7Hdf5.writeFile(file, 70, 1);
        try (Hdf5Dataset ds = Hdf5Dataset.open(file, "data", "labels")) {
            assertThat(ds.size()).isEqualTo(70);
            assertThat(ds.mapped("data")).isTrue();
            assertThat(ds.mapped("labels")).isTrue();
            assertThat(ds.layout().toString()).isEqualTo("{data: f32 " + Shape.of(3, 64, 64)
                    + ", labels: i64 " + Shape.scalar() + "}");
            double sum = 0;
            double squares = 0;
            for (long i = 0; i < ds.size(); i++) {
                Map<String, Tensor> s = ds.get(i);
                assertThat(s.get("labels").getLong(0)).isBetween(0L, (long) W7Hdf5.CLASSES - 1);
                for (float v : s.get("data").toFloatArray()) {
                    sum += v;
                    squares += (double) v * v;
                }
            }
            double n = 70.0 * 3 * 64 * 64;
            assertThat(sum / n).isCloseTo(0, within(0.02));        // standard normal samples
            assertThat(squares / n).isCloseTo(1, within(0.05));
        }
    }
}
