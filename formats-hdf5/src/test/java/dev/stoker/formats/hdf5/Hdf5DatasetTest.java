package dev.stoker.formats.hdf5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reads the fixtures h5py wrote (src/test/python/make_fixtures.py): data[i] = i * 1000 + flat, labels[i] = 7i - 3. */
class Hdf5DatasetTest {
    static final int ROWS = 10;
    static final Shape ROW = Shape.of(3, 4, 5);

    static Path fixture(String name) {
        try {
            return Path.of(Hdf5DatasetTest.class.getResource("/hdf5/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static void assertRow(Tensor data, Tensor label, long i) {
        assertThat(data.dtype()).isEqualTo(DType.F32);
        assertThat(data.shape()).isEqualTo(ROW);
        for (long k = 0; k < ROW.elements(); k++) {
            assertThat(data.getFloat(k)).as("row %d element %d", i, k).isEqualTo(i * 1000f + k);
        }
        assertThat(label.dtype()).isEqualTo(DType.I64);
        assertThat(label.getLong(0)).isEqualTo(7 * i - 3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"contiguous.h5", "chunked.h5", "chunked_gzip.h5", "chunked_lzf.h5", "big_endian.h5"})
    void getReadsEveryRowAsH5pyWroteIt(String name) {
        try (Hdf5Dataset ds = Hdf5Dataset.open(fixture(name), "data", "/labels")) {
            assertThat(ds.size()).isEqualTo(ROWS);
            assertThat(ds.layout().toString()).isEqualTo("{data: f32 " + ROW + ", labels: i64 " + Shape.scalar() + "}");
            for (long i = 0; i < ROWS; i++) {
                Map<String, Tensor> s = ds.get(i);
                assertThat(s.keySet()).containsExactly("data", "labels");
                assertRow(s.get("data"), s.get("labels"), i);
            }
            assertThatThrownBy(() -> ds.get(ROWS)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ds.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void contiguousAndUnfilteredChunkedArraysAreMappedAndCompressedOnesDecoded() {
        try (Hdf5Dataset contiguous = Hdf5Dataset.open(fixture("contiguous.h5"), "data", "labels");
             Hdf5Dataset compressed = Hdf5Dataset.open(fixture("chunked_gzip.h5"), "data", "labels");
             Hdf5Dataset chunked = Hdf5Dataset.open(fixture("chunked.h5"), "data", "labels");
             Hdf5Dataset big = Hdf5Dataset.open(fixture("big_endian.h5"), "data", "labels")) {
            assertThat(contiguous.mapped("data")).isTrue();
            assertThat(contiguous.mapped("labels")).isTrue();
            assertThat(big.mapped("data")).isTrue();
            assertThat(chunked.mapped("data")).isTrue();
            assertThat(chunked.mapped("labels")).isTrue();
            assertThat(compressed.mapped("data")).isFalse();
            assertThat(compressed.mapped("labels")).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"contiguous.h5", "chunked.h5", "chunked_gzip.h5", "chunked_lzf.h5", "big_endian.h5"})
    void theLoaderFillsOrCollatesBatchesAndEmptiesItsPool(String name) {
        for (int run = 0; run < 4; run++) {
            int workers = run % 2 == 0 ? 0 : 2;
            boolean collate = run >= 2; // get + DefaultCollate must give the batch that fill gives
            long seen = 0;
            try (Hdf5Dataset ds = Hdf5Dataset.open(fixture(name), "data", "labels");
                 DataLoader<?> loader = builder(ds, collate).batchSize(4).shuffle(true).seed(3)
                         .numWorkers(workers).build()) {
                for (Batch b : loader) {
                    try (b) {
                        Tensor data = b.tensor("data");
                        Tensor labels = b.tensor("labels");
                        assertThat(data.shape()).isEqualTo(ROW.prepend(b.indices().length));
                        assertThat(labels.shape()).isEqualTo(Shape.of(b.indices().length));
                        for (int j = 0; j < b.indices().length; j++) {
                            assertRow(data.select(j), labels.select(j).reshape(Shape.of(1)), b.indices()[j]);
                        }
                        seen += b.indices().length;
                    }
                }
                assertThat(loader.pool().lentBytes()).isZero();
            }
            assertThat(seen).as("%d workers", workers).isEqualTo(ROWS);
        }
    }

    private static LoaderBuilder<Map<String, Tensor>> builder(Hdf5Dataset ds, boolean collate) {
        LoaderBuilder<Map<String, Tensor>> b = DataLoader.builder(ds);
        return collate ? b.collate(DefaultCollate.instance()) : b;
    }

    @Test
    void chunksNeverWrittenReadAsTheFillValueZero() {
        try (Hdf5Dataset ds = Hdf5Dataset.open(fixture("chunked.h5"), "sparse", "labels")) {
            assertThat(ds.mapped("sparse")).isTrue();
            for (long i = 0; i < ROWS; i++) {
                Map<String, Tensor> s = ds.get(i);
                Tensor row = s.get("sparse");
                for (long k = 0; k < ROW.elements(); k++) {
                    assertThat(row.getFloat(k)).as("row %d element %d", i, k).isEqualTo(i < 4 ? i * 1000f + k : 0f);
                }
            }
        }
    }

    @Test
    void closeIsIdempotent() {
        Hdf5Dataset ds = Hdf5Dataset.open(fixture("contiguous.h5"), "data");
        ds.close();
        ds.close();
    }

    @Test
    void aTruncatedFileFailsOnOpenNamingTheFileAndArray() {
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("truncated.h5"), "data", "labels"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("truncated.h5")
                .hasMessageContaining("truncated or corrupt");
    }

    @Test
    void arraysOfDifferentLengthsAreRefused() {
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("contiguous.h5"), "data", "group/short"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("'data' has 10 rows and 'group/short' has 7");
    }

    @Test
    void aMissingArrayIsNamed() {
        assertThatThrownBy(() -> Hdf5Dataset.open(fixture("contiguous.h5"), "nope"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("contiguous.h5")
                .hasMessageContaining("'nope'");
    }

    @Test
    void garbageIsNotAnHdf5File(@TempDir Path dir) throws Exception {
        Path junk = dir.resolve("junk.h5");
        Files.write(junk, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        assertThatThrownBy(() -> Hdf5Dataset.open(junk, "data"))
                .isInstanceOf(Hdf5FormatException.class)
                .hasMessageContaining("junk.h5");
    }
}
