package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.data.DataPosition;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads the environments Python's lmdb wrote (src/test/python/make_lmdb_fixture.py). */
class LmdbDatasetTest {
    static final Path SMALL = Path.of("src/test/resources/lmdb/small");
    static final Path NOLEN = Path.of("src/test/resources/lmdb/nolen");
    static final int N = 7;

    static byte[] expected(int i) {
        byte[] b = new byte[i + 1];
        Arrays.fill(b, (byte) (7 * i));
        return b;
    }

    @Test
    void readsW8LayoutWrittenByPython() {
        try (LmdbDataset ds = LmdbDataset.open(SMALL)) {
            assertThat(ds.size()).isEqualTo(N);
            for (int i = 0; i < N; i++) {
                LmdbSample s = ds.get(i);
                assertThat(s.index()).isEqualTo(i);
                assertThat(s.key()).isEqualTo(String.format("%06d", i));
                assertThat(s.value()).isEqualTo(expected(i));
                assertThat(s.label()).isEqualTo(i * 3 % 5);
                assertThat(ds.label(i)).isEqualTo(i * 3 % 5);
            }
            assertThat(ds.environment().entries()).isEqualTo(N + 2);
            assertThat(ds.name()).contains("small");
        }
    }

    @Test
    void aTrustedOpenReadsTheSame() {
        try (LmdbDataset checked = LmdbDataset.open(SMALL);
             LmdbDataset trusted = LmdbDataset.openTrusted(SMALL, LmdbLayout.w8())) {
            assertThat(trusted.size()).isEqualTo(checked.size());
            for (int i = 0; i < N; i++) {
                assertThat(trusted.get(i).value()).isEqualTo(checked.get(i).value());
                assertThat(trusted.label(i)).isEqualTo(checked.label(i));
            }
        }
    }

    @Test
    void randomOrderAndBatchesAgreeWithSequentialReads() {
        try (LmdbDataset ds = LmdbDataset.open(SMALL)) {
            long[] order = {6, 0, 3, 3, 5, 1};
            List<LmdbSample> batch = ds.getBatch(order);
            for (int k = 0; k < order.length; k++) {
                assertThat(batch.get(k).value()).isEqualTo(expected((int) order[k]));
            }
        }
    }

    @Test
    void valuesStayValidAfterTheReaderCloses() {
        LmdbSample s;
        try (LmdbDataset ds = LmdbDataset.open(SMALL)) {
            s = ds.get(4);
        }
        assertThat(s.value()).isEqualTo(expected(4));
    }

    @Test
    void indexOutsideTheDatasetIsRefused() {
        try (LmdbDataset ds = LmdbDataset.open(SMALL)) {
            assertThatThrownBy(() -> ds.get(N)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ds.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void missingKeyNamesPathIndexAndKey() {
        try (LmdbDataset ds = LmdbDataset.open(SMALL, LmdbLayout.w8().withSize(N + 1).withoutLabels())) {
            assertThat(ds.get(0).label()).isEqualTo(-1);
            assertThatThrownBy(() -> ds.get(N))
                    .isInstanceOf(LmdbException.class)
                    .hasMessageContaining(SMALL.toString())
                    .hasMessageContaining("000007")
                    .hasMessageContaining("sample 7");
            LmdbException e = catchThrowableOfType(LmdbException.class, () -> ds.get(N));
            assertThat(e.source()).isEqualTo(SMALL.toString()); // the fields say it too
            assertThat(e.position()).isEqualTo(DataPosition.named("key", "000007"));
        }
    }

    @Test
    void missingSizeKeyIsNamed() {
        assertThatThrownBy(() -> LmdbDataset.open(NOLEN))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(NOLEN.toString())
                .hasMessageContaining("__len__");
    }

    @Test
    void labelsOfTheWrongLengthAreRefused() {
        assertThatThrownBy(() -> LmdbDataset.open(SMALL, LmdbLayout.w8().withSize(3)))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining("__labels__")
                .hasMessageContaining("7 labels for 3 samples");
    }

    @Test
    void malformedSizeIsRefused() {
        assertThatThrownBy(() -> LmdbDataset.open(SMALL, new LmdbLayout(i -> "x", -1, "000003", null)))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining("000003")
                .hasMessageContaining("ASCII decimal");
    }

    @Test
    void keyListLayout() {
        try (LmdbDataset ds = LmdbDataset.open(NOLEN, LmdbLayout.keys(List.of("x")))) {
            assertThat(ds.size()).isEqualTo(1);
            assertThat(new String(ds.get(0).value())).isEqualTo("y");
        }
    }

    @Test
    void closedDatasetRefusesReads() {
        LmdbDataset ds = LmdbDataset.open(SMALL);
        ds.get(0);
        ds.close();
        ds.close(); // idempotent
        assertThatThrownBy(() -> ds.get(1))
                .isInstanceOf(IllegalStateException.class) // a closed reader, as every reader of the formats
                .hasMessageContaining("closed")
                .hasMessageContaining(SMALL.toString());
    }
}
