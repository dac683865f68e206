package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RowGroupCacheTest {
    private static final ParquetColumn ID = new ParquetColumn("id", "id", ColumnKind.INT64, false);

    private static RowGroupData group(int g) {
        return RowGroupData.of(g, new DecodedColumn[] {
                new DecodedColumn(ID, 1, new long[] {g}, null, null, null, null)});
    }

    @Test
    void aRefusedRowGroupIsDecodedOnceThenRefusedWithTheSameMessage() {
        RowGroupCache cache = new RowGroupCache(2);
        AtomicInteger decodes = new AtomicInteger();
        for (int row = 0; row < 100; row++) {
            assertThatThrownBy(() -> cache.get(3, g -> {
                decodes.incrementAndGet();
                throw new ParquetFormatException("f.parquet, row group " + g + ": bad page");
            })).isInstanceOf(ParquetFormatException.class).hasMessage("f.parquet, row group 3: bad page");
        }
        assertThat(decodes).hasValue(1);
    }

    @Test
    void onlyFormatErrorsAreRemembered() {
        RowGroupCache cache = new RowGroupCache(2);
        AtomicInteger decodes = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> cache.get(0, g -> {
                decodes.incrementAndGet();
                throw new IllegalStateException("closed");
            })).isInstanceOf(IllegalStateException.class);
        }
        assertThat(decodes).hasValue(3);
        assertThat(cache.get(0, RowGroupCacheTest::group).group()).isZero();
    }

    @Test
    void otherRowGroupsStillDecodeAfterARefusal() {
        RowGroupCache cache = new RowGroupCache(1);
        assertThatThrownBy(() -> cache.get(1, g -> {
            throw new ParquetFormatException("f.parquet, row group 1: bad");
        })).isInstanceOf(ParquetFormatException.class);
        assertThat(cache.get(2, RowGroupCacheTest::group).group()).isEqualTo(2);
        assertThatThrownBy(() -> cache.get(1, RowGroupCacheTest::group)).isInstanceOf(ParquetFormatException.class);
    }
}
