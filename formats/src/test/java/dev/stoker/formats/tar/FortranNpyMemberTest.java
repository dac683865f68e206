package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fortran-order {@code .npy} members (written by NumPy, little- and big-endian) reach the batch in
 * C order with NumPy's values (src/test/python/make_tar_fixtures.py).
 */
class FortranNpyMemberTest {

    @Test
    void fortranMembersAreTransposedIntoTheRow() throws IOException {
        String line = Files.readString(Fixtures.tar("fortran_npy.expected")).trim();
        float[] want = new float[24];
        double[] parsed = Arrays.stream(line.split(" ")).mapToDouble(Double::parseDouble).toArray();
        for (int i = 0; i < want.length; i++) {
            want[i] = (float) parsed[i];
        }
        TarShardDataset shards = TarShardDataset.builder(List.of(Fixtures.tar("fortran_npy.tar").toString())).build();
        TarTensorStream ds = TarTensorStream.builder(shards).npy("x", "x.npy", DType.F32, Shape.of(2, 3, 4))
                .tuple().build();
        List<float[]> rows = new ArrayList<>();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(1).build()) {
            for (Batch b : loader) {
                try (b) {
                    rows.add(b.tensor(0).select(0).toFloatArray());
                }
            }
        }
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).as("little-endian").containsExactly(want);
        assertThat(rows.get(1)).as("big-endian").containsExactly(want);
    }
}
