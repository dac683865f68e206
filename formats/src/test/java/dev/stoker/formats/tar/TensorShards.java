package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.Batch;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * The shards tensors-*.tar under src/test/resources/tar, written by
 * src/test/python/make_tensor_shards.py with tarfile and NumPy, and the values of their samples
 * recomputed from the script's formulas.
 */
final class TensorShards {
    private TensorShards() {
    }

    /** The good shards: samples 0..11 and 12..23. */
    static String good() {
        return Fixtures.tar("tensors-0.tar").getParent().resolve("tensors-{0..1}.tar").toString();
    }

    /** The fields of every sample, as the script writes them. */
    static TarTensorStream.Builder fields(StreamingDataset<TarSample> source) {
        return TarTensorStream.builder(source)
                .npy("x", "x.npy", DType.F32, Shape.of(2, 3))
                .npy("y", "y.npy", DType.I16, Shape.of(3))
                .npy("t", "t.npy", DType.F64, Shape.scalar())
                .integer("label", "cls")
                .raw("emb", "emb", DType.F16, Shape.of(4));
    }

    static float[] x(int i) {
        float[] v = new float[6];
        for (int j = 0; j < 6; j++) {
            v[j] = (j + 10 * i) / 4f;
        }
        return v;
    }

    static long[] y(int i) {
        return new long[] {-300L * i, i, 7};
    }

    static double t(int i) {
        return i + 0.5;
    }

    static long label(int i) {
        return (7L * i) % 13 - 4;
    }

    static float[] emb(int i) {
        float[] v = new float[4];
        for (int j = 0; j < 4; j++) {
            v[j] = (j + i) / 2f;
        }
        return v;
    }

    /** The sample ids of a batch of map form, read from its {@code t} field (i + 0.5). */
    static List<Integer> ids(Batch b) {
        Tensor t = b.tensor("t");
        List<Integer> ids = new ArrayList<>();
        for (int r = 0; r < t.shape().dim(0); r++) {
            ids.add((int) (t.getDouble(r) - 0.5));
        }
        return ids;
    }

    /** Every field of every row of {@code b} holds what the script wrote for its sample. */
    static void assertRows(Batch b) {
        List<Integer> ids = ids(b);
        for (int r = 0; r < ids.size(); r++) {
            int i = ids.get(r);
            String row = "row " + r + " (sample " + i + ")";
            assertThat(b.tensor("x").shape()).isEqualTo(Shape.of(ids.size(), 2, 3));
            assertThat(b.tensor("x").select(r).toFloatArray()).as(row).containsExactly(x(i));
            assertThat(b.tensor("y").select(r).toLongArray()).as(row).containsExactly(y(i));
            assertThat(b.tensor("label").getLong(r)).as(row).isEqualTo(label(i));
            assertThat(b.tensor("emb").select(r).toFloatArray()).as(row).containsExactly(emb(i));
        }
    }
}
